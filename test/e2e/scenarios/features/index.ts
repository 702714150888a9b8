// The user stories, each from a fresh user data folder: sign in, upload and attach,
// watch a run (live, through a dropped stream, across a window reload), artifacts, delete, 401.
import { type Scenario } from '../types';
import { agentAccess } from './agentAccess';
import { applyShowsEveryFile } from './applyWholeList';
import { openArtifact, saveArtifact } from './artifacts';
import { chatParticipant } from './chatParticipant';
import { deleteFile } from './deleteFile';
import { hostileServer } from './hostile';
import { workingInRepository } from './projects';
import { reviewChanges, reviewChangesThreeWay } from './review';
import { reviewChangesSinceRevision } from './reviewRevisions';
import { reviewTalkLoop } from './reviewTalkLoop';
import { runLogTools } from './runLogTools';
import { runPanelAxe } from './runPanelAxe';
import { runPanelNarrow } from './runPanelNarrow';
import { signIn } from './signIn';
import { spendCap } from './spendCap';
import { STEERING_SCENARIOS } from './steering';
import { STEERING_PICTURE_SCENARIOS } from './steeringPictures';
import { runPanelDark, runPanelGerman, runPanelHighContrast, runPanelLight } from './themes';
import { unreachableWelcome } from './unreachable';
import { uploadAndAttach } from './uploadAttach';
import { reloadMidRun, streamDropReconnect, watchRunLive } from './watchRun';
import { webWorker, webWorkerRun, webWorkerUpload } from './webWorker';
import { webWorkerReview } from './webWorkerReview';
import { wrongKeyPromptsOnce } from './wrongKey';

export const FEATURE_SCENARIOS: Scenario[] = [
  signIn,
  uploadAndAttach,
  watchRunLive,
  streamDropReconnect,
  reloadMidRun,
  openArtifact,
  saveArtifact,
  deleteFile,
  wrongKeyPromptsOnce,
  unreachableWelcome,
  runPanelLight,
  runPanelDark,
  runPanelHighContrast,
  runPanelGerman,
  runPanelAxe,
  runPanelNarrow,
  hostileServer,
  reviewChanges,
  reviewChangesThreeWay,
  reviewChangesSinceRevision,
  reviewTalkLoop,
  workingInRepository,
  applyShowsEveryFile,
  runLogTools,
  ...STEERING_SCENARIOS,
  ...STEERING_PICTURE_SCENARIOS,
  spendCap,
  chatParticipant,
  agentAccess,
  webWorker,
  webWorkerRun,
  webWorkerReview,
  webWorkerUpload,
];
