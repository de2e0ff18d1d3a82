import { analyze as analyzeRecord } from '../../../bench/analysis/analyze.js';
import { withRecordedFindings } from '../../../bench/own-app/findings/switching.js';

/**
 * The Analysis of results as bin/'s readers hand them to analyze() (`readRun`): a --nest-app record built without the
 * findings its check records gets them first.
 */
export function analyze(results: Parameters<typeof analyzeRecord>[0]): ReturnType<typeof analyzeRecord> {
  return analyzeRecord(withRecordedFindings(results));
}
