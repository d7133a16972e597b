/** A one-line progress display: a redrawn bar on a terminal, a few plain lines otherwise. */
export function createProgress(read: () => { emitted: number; acknowledged: number }) {
  const tty = process.stdout.isTTY === true;
  let lastLogged = -1;
  const draw = () => {
    const { emitted, acknowledged } = read();
    const ratio = emitted === 0 ? 0 : acknowledged / emitted;
    if (tty) {
      const width = 30;
      const filled = Math.round(ratio * width);
      process.stdout.write(
        `\r  shipping logs [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${acknowledged}/${emitted} acknowledged`,
      );
    } else {
      const step = Math.floor(ratio * 4);
      if (step !== lastLogged) {
        lastLogged = step;
        console.log(`  shipping logs: ${acknowledged}/${emitted} acknowledged`);
      }
    }
  };
  const timer = setInterval(draw, 100);
  return {
    stop() {
      clearInterval(timer);
      draw();
      if (tty) process.stdout.write('\n');
    },
  };
}
