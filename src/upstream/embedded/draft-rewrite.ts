/**
 * A deterministic rewrite of a draft for one profile, built from the draft's own
 * sentences: hedges dropped, hype calmed, pressure softened, the ask moved to where
 * the profile expects it, a warm opener or a next step added where missing, and
 * low-value sentences trimmed to the preferred length.
 *
 * It removes what the review's own issues flag (draft-scoring.ts): hedges past the
 * allowance, pressure for a profile that wants room, and, when the tone is flagged,
 * every hype word, vague word and "!" the issue names. It never contradicts itself: a
 * rewrite that asks for a date drops "no rush", "take your time" and the like.
 */
import { hedgeAllowance, hypeAllowance, type DraftPreferences, type Tolerance, type WordRange } from './comms-playbook';
import { countWords, HEDGE, IMPERATIVE, type Break, type DraftFeatures } from './draft-features';

interface Unit {
  text: string;
  words: number;
  isAsk: boolean;
  isPleasantry: boolean;
  hasDeadline: boolean;
  /** Added by the rewrite rather than taken from the draft: never trimmed. */
  added: boolean;
  breakAfter: Break;
}

const WARM_OPENER = "I hope you're doing well.";
/** Where the writer fills in a date the rewrite asks for. */
const DATE_PLACEHOLDER = '[date]';
const DEADLINE_AFTER_ASK = `Please confirm by ${DATE_PLACEHOLDER}.`;
const EXPLICIT_NEXT_STEP = `Please confirm the next step by ${DATE_PLACEHOLDER}.`;
const OPEN_INVITATION = "I'd love to hear what you think.";
const THANKS = 'Thank you.';
const OPEN_QUESTION = 'How do you see it?';

const HYPE_REPLACEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:totally|absolutely|literally|insanely|incredibly|super)\s+/gi, ''],
  [/\bbest ever\b/gi, 'best so far'],
  [/\bgame[- ]changer\b/gi, 'significant change'],
  [/\b(?:amazing|incredible|fantastic|phenomenal|unbelievable|epic|mind[- ]blowing|awesome)\b/gi, 'good'],
  [/\b(?:revolutionary|groundbreaking|ground-breaking|unprecedented|game[- ]changing|massive|huge)\b/gi, 'significant'],
  [/\b(?:cutting[- ]edge|next[- ]level)\b/gi, 'current'],
  [/\b(?:world[- ]class|best[- ]in[- ]class)\b/gi, 'high-quality'],
  [/\b(An|an)\s+(?=(?:good|significant|current|high-quality)\b)/g, 'a '],
];

/** Vague words, replaced by what the reader needs in their place (flagged for a low hype tolerance). */
const VAGUE_REPLACEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:a lot of|lots of|tons of)\b/gi, '[how many]'],
  [/\ba (?:lot|while)\b/gi, '[how much]'],
  [/\b(?:stuff|things?|whatever)\b/gi, '[what exactly]'],
  [/\b(?:somehow|basically),?\s*/gi, ''],
  [/,?\s*\b(?:etc|and so on)\b\.?/gi, ''],
];

/** Vague times: a date to fill in, or, for a reader who wants room, an open invitation. */
const VAGUE_TIME = /\b(?:as soon as (?:possible|you can)|(?:by )?(?:at some point|sometime|soon))\b/gi;
const OPEN_TIME = 'whenever suits you';

/** What a message that asks for a date must not also say. */
const RELAXED = /\b(?:no rush|no hurry|no pressure|take your time|there(?:'|’)s no deadline|whenever(?: you (?:can|like|want|get a chance))?)\b[,.!]*\s*/gi;

const PRESSURE_REPLACEMENTS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:asap|as soon as possible|right away|right now|immediately)\b/gi, 'when you can'],
  [/\burgently\b/gi, 'soon'],
  [/\b(?:urgent|non-negotiable)\b/gi, 'important'],
  [/,?\s*\b(?:no excuses|or else)\b/gi, ''],
  [/\bno later than\b/gi, 'by'],
];

function replaceAll(text: string, rules: ReadonlyArray<readonly [RegExp, string]>): string {
  return rules.reduce((out, [pattern, replacement]) => out.replace(pattern, replacement), text);
}

function capitalise(text: string): string {
  return /^\p{Ll}/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** Collapses the gaps and stray punctuation that removing words leaves behind. */
export function tidy(text: string): string {
  const out = text
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/[ \t]+([,.;:!?])/g, '$1')
    .replace(/,\s*([.!?])/g, '$1')
    .replace(/^[\s,;:]+/, '')
    .trim();
  return capitalise(out);
}

/** "I think maybe we could just ship it." → "We could ship it." */
export function removeHedges(text: string): string {
  const out = text
    .replace(/\bI was (?:just )?wondering (?:if|whether) you (could|would|can|might)\b/gi, (_m, verb: string) =>
      verb.toLowerCase() === 'might' ? 'could you' : `${verb.toLowerCase()} you`,
    )
    .replace(/\bI (?:think|guess|suppose|feel like)(?: that)?,?\s*/gi, '')
    .replace(new RegExp(`(?:${HEDGE.source}),?\\s*`, 'gi'), '');
  const tidied = tidy(out);
  return /^(?:could|would|can|will) you\b/i.test(tidied) ? tidied.replace(/\.$/, '?') : tidied;
}

/** Exclamation marks become full stops unless hype is welcome; hype words become plain ones when it is not. */
export function calmTone(text: string, tolerance: Tolerance): string {
  if (tolerance === 'high') return text.replace(/!{2,}/g, '!');
  const calm = text.replace(/\?!+/g, '?').replace(/!+/g, '.');
  return tolerance === 'low' ? tidy(replaceAll(calm, HYPE_REPLACEMENTS)) : calm;
}

/**
 * Whether the review flags the draft's tone (draft-scoring.ts, checkTone): hype words,
 * "!" and, for a low tolerance, vague words and the lack of any figure, past the allowance.
 */
export function toneFlagged(features: DraftFeatures, preferences: DraftPreferences): boolean {
  const strict = preferences.hype === 'low';
  const noFigures = strict && !features.hasNumber && features.words >= 20;
  const count = features.hype.length + (strict ? features.vague.length : 0) + features.exclamationMarks + (noFigures ? 1 : 0);
  return count > hypeAllowance(preferences.hype);
}

/** A sentence with everything a flagged tone names gone: "!" and hype words, and vague words too for a low tolerance. */
export function plainTone(text: string, preferences: Pick<DraftPreferences, 'hype' | 'callToAction'>): string {
  const calm = replaceAll(text.replace(/\?!+/g, '?').replace(/!+/g, '.'), HYPE_REPLACEMENTS);
  if (preferences.hype !== 'low') return tidy(calm);
  const when = preferences.callToAction === 'open' ? OPEN_TIME : `by ${DATE_PLACEHOLDER}`;
  return tidy(replaceAll(calm, VAGUE_REPLACEMENTS).replace(VAGUE_TIME, when));
}

export function softenPressure(text: string): string {
  return tidy(replaceAll(text, PRESSURE_REPLACEMENTS));
}

/**
 * The run of marks that ends a sentence. A match starts only where a run starts (the
 * lookbehind): tried at each of a long run's characters, it rescanned the rest of the run.
 */
export const TRAILING_MARKS = /(?<![.!?])[.!?]+$/;

/** "Send me the report." → "Could you send me the report?" */
export function softenCommand(text: string): string {
  if (!IMPERATIVE.test(text)) return text;
  const core = text.replace(TRAILING_MARKS, '');
  const lowered = /^\p{Lu}\p{Ll}/u.test(core) ? core.charAt(0).toLowerCase() + core.slice(1) : core;
  return `Could you ${lowered}?`;
}

function addedUnit(text: string, flags: Partial<Pick<Unit, 'isAsk' | 'isPleasantry' | 'hasDeadline'>>): Unit {
  return { text, words: countWords(text), isAsk: false, isPleasantry: false, hasDeadline: false, ...flags, added: true, breakAfter: ' ' };
}

/** Moves a sentence; in a draft laid out in lines it becomes a paragraph of its own. */
function move(units: Unit[], from: number, to: number): void {
  const laidOut = units.slice(0, -1).some((u) => u.breakAfter.includes('\n'));
  const [unit] = units.splice(from, 1);
  if (!unit) return;
  const text = tidy(unit.text.replace(/^(?:anyway|so|also|and|but|well|ok|okay)\b,?\s*/i, ''));
  units.splice(to, 0, { ...unit, text, breakAfter: laidOut ? '\n\n' : ' ' });
}

function leadingPleasantries(units: readonly Unit[]): number {
  const index = units.findIndex((u) => !u.isPleasantry || u.isAsk);
  return index === -1 ? units.length : index;
}

/** The ask most likely to stand on its own when moved: the longest one. */
function mainAsk(units: readonly Unit[]): number {
  return units.reduce((best, u, i) => (u.isAsk && (best === -1 || u.words > (units[best]?.words ?? 0)) ? i : best), -1);
}

function placeAsk(units: Unit[], preferences: DraftPreferences): void {
  const lead = leadingPleasantries(units);
  const main = mainAsk(units);
  if (preferences.directness === 'ask-first' && main > lead) move(units, main, lead);
  const askIndex = units.findIndex((u) => u.isAsk);
  if (preferences.directness === 'context-first' && askIndex === lead) {
    let lastContext = -1;
    units.forEach((u, i) => {
      if (i > askIndex && !u.isAsk && !u.isPleasantry) lastContext = i;
    });
    if (lastContext !== -1) move(units, askIndex, lastContext);
  }
}

function addNextStep(units: Unit[], preferences: DraftPreferences): void {
  const askIndex = units.findIndex((u) => u.isAsk);
  if (preferences.callToAction === 'open') {
    if (askIndex === -1) units.push(addedUnit(OPEN_INVITATION, { isAsk: true }));
    return;
  }
  if (units.some((u) => u.hasDeadline)) return;
  if (askIndex === -1) units.push(addedUnit(EXPLICIT_NEXT_STEP, { isAsk: true, hasDeadline: true }));
  else units.splice(askIndex + 1, 0, addedUnit(DEADLINE_AFTER_ASK, { isAsk: true, hasDeadline: true }));
}

/** Drops sentences that are neither the ask, a date, an opener nor the first piece of context, last first. */
function trimTo(units: Unit[], maxWords: number, otherWords: number, keepPleasantries: boolean): void {
  let total = otherWords + units.reduce((sum, u) => sum + u.words, 0);
  const firstContext = units.findIndex((u) => !u.isPleasantry && !u.isAsk);
  for (let i = units.length - 1; i >= 0 && total > maxWords; i -= 1) {
    const u = units[i];
    if (!u || u.isAsk || u.hasDeadline || u.added || i === firstContext || (u.isPleasantry && keepPleasantries)) continue;
    total -= u.words;
    units.splice(i, 1);
  }
}

export function rewriteDraft(features: DraftFeatures, preferences: DraftPreferences, range: WordRange): string {
  const dropHedges = features.hedges.length > hedgeAllowance(preferences.hedging, features.words);
  const flaggedTone = toneFlagged(features, preferences);
  const clean = (text: string): string => {
    let out = dropHedges ? removeHedges(text) : text;
    out = flaggedTone ? plainTone(out, preferences) : calmTone(out, preferences.hype);
    if (preferences.callToAction === 'open') out = softenPressure(out);
    else out = tidy(out.replace(RELAXED, ''));
    if (preferences.hedging === 'high') out = softenCommand(out);
    return tidy(out);
  };
  let units: Unit[] = features.body
    .map((s) => ({ ...s, text: clean(s.text), added: false }))
    .map((u) => ({ ...u, hasDeadline: u.hasDeadline || (u.isAsk && u.text.includes(DATE_PLACEHOLDER)) }))
    .map((u) => ({ ...u, words: countWords(u.text) }))
    .filter((u) => u.words > 0);

  if (preferences.opener === 'business') units = units.slice(leadingPleasantries(units));
  if (preferences.opener === 'warm' && !units[0]?.isPleasantry) units.unshift(addedUnit(WARM_OPENER, { isPleasantry: true }));
  placeAsk(units, preferences);
  addNextStep(units, preferences);
  if (preferences.questions === 'high' && !units.some((u) => u.text.includes('?'))) units.push(addedUnit(OPEN_QUESTION, { isAsk: true }));
  if (preferences.hedging === 'high' && features.courtesyMarkers === 0) units.push(addedUnit(THANKS, {}));

  const salutation = features.salutation?.text ?? (preferences.opener === 'warm' ? 'Hi,' : null);
  const signatureWords = features.signature.reduce((sum, s) => sum + s.words, 0);
  trimTo(units, range.max, signatureWords + countWords(salutation ?? ''), preferences.opener === 'warm');

  const body = units.map((u, i) => u.text + (i === units.length - 1 ? '' : u.breakAfter || ' ')).join('');
  const signature = features.signature.map((s) => s.text + s.breakAfter).join('');
  const salutationBreak = features.salutation?.breakAfter === '\n' ? '\n' : '\n\n';
  return [salutation === null ? '' : salutation + salutationBreak, body, signature ? `\n\n${signature}` : '']
    .join('')
    .trim();
}
