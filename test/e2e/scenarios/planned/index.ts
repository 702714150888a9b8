// The scenarios of issue 7, written against the planned UI (docs/ARCHITECTURE.md "VS Code
// layer"). Each is marked `planned` and runs only when E2E_SCENARIOS asks for it (all, planned,
// or its id); delete its `planned: true` to make it part of the default suite.
import { Scenario } from '../types';
import { openArtifact } from './artifacts';
import { deleteFile } from './deleteFile';
import { signIn } from './signIn';
import { uploadAndAttach } from './uploadAttach';
import { reloadMidRun, streamDropReconnect, watchRunLive } from './watchRun';
import { wrongKeyPromptsOnce } from './wrongKey';

export const PLANNED_SCENARIOS: Scenario[] = [
  signIn,
  uploadAndAttach,
  watchRunLive,
  streamDropReconnect,
  reloadMidRun,
  openArtifact,
  deleteFile,
  wrongKeyPromptsOnce,
];
