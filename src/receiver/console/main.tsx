import { render } from 'preact';
import { App } from './components/app.tsx';
import './console.css';

const root = document.getElementById('app');
if (root) render(<App />, root);
