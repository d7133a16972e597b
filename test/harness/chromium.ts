/**
 * Debian's Chromium as the browser tests and the screenshot script launch it
 * (docs/testing.md): headless, and with everything that would reach the internet turned off
 * (without those flags it tries to and stalls on a machine that has none).
 */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
