// Where the upload flow records each uploaded file's origin (workspace file, folder, SHA-256 of
// what was sent) for a later review: src/reviewUi/uploadOrigins.ts, which hashes from this
// machine's disk. The web bundle takes uploadOriginRecord.web.ts.
export { recordUploads, stampFiles } from '../reviewUi/uploadOrigins';
