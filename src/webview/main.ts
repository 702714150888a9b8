// The run panel's browser script: starts the app (app.ts) on load.
import { RunPanelApp } from './app';
import { vscodeApi } from './vscodeApi';

new RunPanelApp(vscodeApi(), document.getElementById('app') ?? document.body).start();
