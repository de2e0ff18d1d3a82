// @ts-check
// How a duration reads wherever the bench shows one: the progress line, the log and the report.

/** @param {number} seconds */
export function formatDuration(seconds) {
  const whole = Math.max(0, Math.round(seconds));
  const minutes = Math.floor(whole / 60);
  return minutes ? `${minutes}m${String(whole % 60).padStart(2, '0')}s` : `${whole}s`;
}
