/**
 * How well a draft fits the profile of the person it is written to, offline and
 * deterministically: measure the draft (`draft-features`), score each feature 0..1
 * against the profile's preferences (`comms-playbook`), and combine.
 *
 * Weights (base, sum 100): length 15, directness (where the ask sits) 15, call to
 * action 15, hedging 15, opener 15, questions 10, tone (hype, vague words, "!") 10,
 * sentence length 5. A profile's priority features count double; the weighted mean is
 * scaled to an integer 0..100.
 */
import type { ProfileName } from '../../domain/profiles';
import type { CommsChannel, DraftAnalysis, DraftIssue } from '../../domain/ports';
import {
  COMMS_PLAYBOOK,
  hedgeAllowance,
  hypeAllowance,
  questionAllowance,
  wordRangeFor,
  type DraftFeature,
  type DraftPreferences,
  type WordRange,
} from './comms-playbook';
import { INTENSIFIER, measureDraft, type DraftFeatures, type Sentence } from './draft-features';
import { plainTone, removeHedges, rewriteDraft, toneFlagged } from './draft-rewrite';

export const FEATURE_WEIGHTS: Readonly<Record<DraftFeature, number>> = {
  length: 15,
  directness: 15,
  callToAction: 15,
  hedging: 15,
  opener: 15,
  questions: 10,
  tone: 10,
  sentenceLength: 5,
};

const MAX_ISSUES = 8;
const MAX_EXCERPT_CHARS = 160;

/** One feature's score (0..1) and the issues behind whatever it lost. */
interface Check {
  feature: DraftFeature;
  score: number;
  issues: DraftIssue[];
}

interface Context {
  f: DraftFeatures;
  prefs: DraftPreferences;
  range: WordRange;
  /** How suggestions name the reader: "a Precisionist", "your reader". */
  reader: string;
}

/** A prefix of `text` cut at a word boundary: still an exact substring of the draft. */
export function clip(text: string, max = MAX_EXCERPT_CHARS): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).trimEnd();
}

function issue(excerpt: Sentence | string | undefined, suggestion: string): DraftIssue[] {
  const text = typeof excerpt === 'string' ? excerpt : excerpt?.text;
  return text ? [{ excerpt: clip(text), suggestion }] : [];
}

const clamp01 = (value: number): number => Math.min(1, Math.max(0, value));
const quote = (text: string): string => `"${clip(text, 120)}${text.length > 120 ? '…' : ''}"`;

function checkLength({ f, range, reader, prefs }: Context): Check {
  const { min, max } = range;
  if (f.words < min) {
    const add = prefs.opener === 'warm' ? 'a personal line and the reason behind the request' : 'the context and one or two facts they need to act';
    const suggestion = `At ${f.words} word${f.words === 1 ? '' : 's'} this is shorter than the ${min}–${max} words that suit ${reader}; add ${add}.`;
    return { feature: 'length', score: f.words / min, issues: issue(f.body[0] ?? f.salutation ?? undefined, suggestion) };
  }
  if (f.words <= max) return { feature: 'length', score: 1, issues: [] };
  let running = f.salutation?.words ?? 0;
  const over = f.body.find((s) => (running += s.words) > max);
  const suggestion = `At ${f.words} words this runs past the ${min}–${max} words that suit ${reader}; cut from here on, keeping only what they need to act.`;
  return { feature: 'length', score: clamp01(1 - (1.5 * (f.words - max)) / max), issues: issue(over, suggestion) };
}

function checkDirectness({ f, prefs, reader }: Context): Check {
  const ask = f.ask;
  if (!ask) return { feature: 'directness', score: prefs.directness === 'ask-first' ? 0 : prefs.directness === 'either' ? 0.5 : 0.3, issues: [] };
  if (prefs.directness === 'ask-first') {
    const score = { early: 1, middle: 0.4, late: 0.1 }[ask.position];
    const suggestion = `Move this request to the opening line: ${reader} wants the ask first, then the detail.`;
    return { feature: 'directness', score, issues: score < 1 ? issue(ask.sentence, suggestion) : [] };
  }
  if (prefs.directness === 'context-first' && ask.position === 'early') {
    const score = f.body.length === 1 ? 0.3 : 0.6;
    const suggestion = `Give a sentence or two of context (why this matters, what it builds on) before this request: ${reader} wants the reasons first.`;
    return { feature: 'directness', score, issues: issue(ask.sentence, suggestion) };
  }
  return { feature: 'directness', score: 1, issues: [] };
}

function checkCallToAction({ f, prefs, reader }: Context): Check {
  const ask = f.ask?.sentence;
  const last = f.body[f.body.length - 1];
  if (prefs.callToAction === 'open') {
    if (f.pressure.length > 0) {
      const issues = f.pressure.flatMap((p) =>
        issue(p.sentence, `Drop "${p.text}" and leave them room, e.g. "when you have a moment": pressure makes ${reader} pull back.`),
      );
      return { feature: 'callToAction', score: 0.3, issues };
    }
    if (!ask) return { feature: 'callToAction', score: 0.5, issues: issue(last, `Close with an open invitation, e.g. "I'd love to hear what you think."`) };
    if (ask.hasDeadline) return { feature: 'callToAction', score: 0.8, issues: issue(ask, 'Frame the date as an invitation, e.g. "any time this week works", rather than a hard deadline.') };
    return { feature: 'callToAction', score: 1, issues: [] };
  }
  if (ask && f.hasDeadline) return { feature: 'callToAction', score: 1, issues: [] };
  if (ask) return { feature: 'callToAction', score: 0.5, issues: issue(ask, `Add a concrete deadline or next step to this request, e.g. "by Thursday at 3 pm": ${reader} expects one.`) };
  if (f.hasDeadline) return { feature: 'callToAction', score: 0.4, issues: issue(last, 'Say plainly what you need them to do, and keep the date.') };
  return { feature: 'callToAction', score: 0, issues: issue(last, 'End with one explicit next step and a date, e.g. "Could you confirm by Thursday?"') };
}

function checkHedging({ f, prefs, reader }: Context): Check {
  const allowed = hedgeAllowance(prefs.hedging, f.words);
  const excess = Math.max(0, f.hedges.length - allowed);
  let score = clamp01(1 - 0.25 * excess);
  const issues: DraftIssue[] = [];
  if (excess > 0) {
    const bySentence = new Map<Sentence, string[]>();
    for (const h of f.hedges) bySentence.set(h.sentence, [...(bySentence.get(h.sentence) ?? []), h.text]);
    for (const [s, words] of bySentence) {
      const plain = removeHedges(s.text);
      const say = plain.length > 0 ? ` and say it plainly: ${quote(plain)}` : '';
      issues.push(...issue(s, `Drop ${words.map((w) => `"${w}"`).join(', ')}${say}.`));
    }
  }
  if (prefs.hedging === 'high' && f.hedges.length === 0 && f.courtesyMarkers === 0) {
    score = Math.min(score, 0.3);
    const target = f.ask?.sentence ?? f.body[0];
    issues.push(...issue(target, `Soften this with "please" or "when you have a moment", and say thank you: ${reader} reads a bare request as cold.`));
  }
  return { feature: 'hedging', score, issues };
}

function checkOpener({ f, prefs, reader }: Context): Check {
  if (prefs.opener === 'warm' && f.opener !== 'personal') {
    const suggestion = `Open with a personal line before business, e.g. "I hope your week is going well": ${reader} wants the relationship first.`;
    return { feature: 'opener', score: f.opener === 'greeting' ? 0.5 : 0, issues: issue(f.body[0] ?? f.salutation ?? undefined, suggestion) };
  }
  if (prefs.opener === 'business' && f.opener === 'personal') {
    const suggestion = `Cut the pleasantry and open with the point: ${reader} wants business first.`;
    return { feature: 'opener', score: 0.4, issues: issue(f.body[0], suggestion) };
  }
  return { feature: 'opener', score: 1, issues: [] };
}

function checkQuestions({ f, prefs, reader }: Context): Check {
  const allowed = questionAllowance(prefs.questions);
  const asking = f.body.filter((s) => s.text.includes('?'));
  if (f.questionMarks > allowed) {
    const suggestion = `Ask at most ${allowed} question${allowed === 1 ? '' : 's'}; turn the rest into statements or one clear request.`;
    return { feature: 'questions', score: clamp01(1 - 0.25 * (f.questionMarks - allowed)), issues: issue(asking[allowed] ?? asking[0], suggestion) };
  }
  if (prefs.questions === 'high' && f.questionMarks === 0) {
    const suggestion = `Add an open question that invites their view, e.g. "What's your read on this?": ${reader} wants to be asked.`;
    return { feature: 'questions', score: 0.5, issues: issue(f.body[f.body.length - 1], suggestion) };
  }
  return { feature: 'questions', score: 1, issues: [] };
}

function checkTone({ f, prefs, reader }: Context): Check {
  if (!toneFlagged(f, prefs)) return { feature: 'tone', score: 1, issues: [] };
  const strict = prefs.hype === 'low';
  const vague = strict ? f.vague : [];
  const noFigures = strict && !f.hasNumber && f.words >= 20;
  const count = f.hype.length + vague.length + f.exclamationMarks + (noFigures ? 1 : 0);
  const excess = Math.max(0, count - hypeAllowance(prefs.hype));
  const notes = new Map<Sentence, string[]>();
  const note = (s: Sentence, text: string): void => {
    notes.set(s, [...(notes.get(s) ?? []), text]);
  };
  for (const h of f.hype) note(h.sentence, INTENSIFIER.test(h.text) ? `drop "${h.text}"` : `replace "${h.text}" with a specific fact or figure`);
  for (const v of vague) note(v.sentence, `replace "${v.text}" with a number, date or name`);
  for (const s of f.body) if (s.text.includes('!')) note(s, `use a full stop instead of "!"`);
  const issues = [...notes].flatMap(([s, todo]) => {
    const calm = plainTone(s.text, prefs);
    const example = calm !== s.text ? ` (e.g. ${quote(calm)})` : '';
    return issue(s, `${todo.join('; ')}${example}.`.replace(/^./, (c) => c.toUpperCase()));
  });
  if (noFigures) issues.push(...issue(f.body[0], `Add at least one concrete figure, date or source: ${reader} trusts specifics over adjectives.`));
  return { feature: 'tone', score: clamp01(1 - 0.2 * excess), issues };
}

function checkSentenceLength({ f, prefs, reader }: Context): Check {
  const max = prefs.maxAverageSentenceWords;
  if (f.averageSentenceWords <= max) return { feature: 'sentenceLength', score: 1, issues: [] };
  const longest = f.body.reduce<Sentence | undefined>((a, s) => (a && a.words >= s.words ? a : s), undefined);
  const suggestion = `Split this ${longest?.words ?? 0}-word sentence: ${reader} reads best in sentences of under ${max} words.`;
  return { feature: 'sentenceLength', score: clamp01(1 - (f.averageSentenceWords - max) / max), issues: issue(longest, suggestion) };
}

const CHECKS = [checkLength, checkDirectness, checkCallToAction, checkHedging, checkOpener, checkQuestions, checkTone, checkSentenceLength];

function readerOf(profile: ProfileName | null): string {
  if (profile === null) return 'your reader';
  return `${/^[AEIOU]/.test(profile) ? 'an' : 'a'} ${profile}`;
}

/** Scores a draft against explicit preferences; `profile` only names the reader in suggestions. */
export function scoreDraftAgainst(draft: string, prefs: DraftPreferences, profile: ProfileName | null, channel?: CommsChannel): DraftAnalysis {
  const f = measureDraft(draft);
  if (f.words === 0) return { fit_score: 0, issues: [], rewrite: null };
  const context: Context = { f, prefs, range: wordRangeFor(prefs, channel), reader: readerOf(profile) };
  const checks = CHECKS.map((check) => check(context));
  const weightOf = (feature: DraftFeature): number => FEATURE_WEIGHTS[feature] * (prefs.priorities.includes(feature) ? 2 : 1);
  const totalWeight = checks.reduce((sum, c) => sum + weightOf(c.feature), 0);
  const earned = checks.reduce((sum, c) => sum + weightOf(c.feature) * clamp01(c.score), 0);
  const fitScore = Math.min(100, Math.max(0, Math.round((100 * earned) / totalWeight)));

  const seen = new Set<string>();
  const issues = checks
    .map((c, order) => ({ c, order, lost: weightOf(c.feature) * (1 - clamp01(c.score)) }))
    .sort((a, b) => b.lost - a.lost || a.order - b.order)
    .flatMap(({ c }) => c.issues)
    .filter((i) => !seen.has(i.excerpt + i.suggestion) && seen.add(i.excerpt + i.suggestion))
    .slice(0, MAX_ISSUES);
  return { fit_score: fitScore, issues, rewrite: rewriteDraft(f, prefs, context.range) };
}

/** How well `draft` fits how `profile` likes to be written to, with issues and a rewrite. */
export function scoreDraft(draft: string, profile: ProfileName, channel?: CommsChannel): DraftAnalysis {
  return scoreDraftAgainst(draft, COMMS_PLAYBOOK[profile].draft, profile, channel);
}
