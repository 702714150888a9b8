// Scenarios of issue 7 written against the planned UI (docs/ARCHITECTURE.md "VS Code layer").
// Off by default; enable with E2E_SCENARIOS=all, =planned or a list of ids as features land.
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
