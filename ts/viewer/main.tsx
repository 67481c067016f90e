// main: the viewer's entry point. Takes the token out of the address, then renders the app.
import { render } from 'preact';
import { takeTokenFromAddress } from './api';
import { App } from './App';
import './app.css';

takeTokenFromAddress();
render(<App />, document.getElementById('app')!);
