/**
 * Measurable features of a message draft: its parts (salutation, body sentences,
 * signature), length, questions, hedges, hype, the opener and where the ask sits.
 *
 * The draft is untrusted text: it is only ever matched against the fixed, linear
 * patterns below. Every `text` returned here is an exact substring of the draft.
 */
export interface Sentence {
  /** The sentence, trimmed: an exact substring of the draft. */
  text: string;
  words: number;
  isAsk: boolean;
  isPleasantry: boolean;
  hasDeadline: boolean;
  /** The whitespace that followed it in the draft, normalised; '' for the last one. */
  breakAfter: Break;
}

export type Break = '' | ' ' | '\n' | '\n\n';

/** A phrase found in a body sentence; `text` is exactly as written in the draft. */
export interface Finding {
  text: string;
  sentence: Sentence;
}

export type Opener = 'personal' | 'greeting' | 'business';
export type Position = 'early' | 'middle' | 'late';

export interface DraftParts {
  salutation: Sentence | null;
  body: Sentence[];
  /** A sign-off and whatever short lines follow it ("Best,", "Sam"). */
  signature: Sentence[];
}

export interface DraftFeatures extends DraftParts {
  words: number;
  averageSentenceWords: number;
  questionMarks: number;
  exclamationMarks: number;
  hedges: Finding[];
  hype: Finding[];
  vague: Finding[];
  pressure: Finding[];
  courtesyMarkers: number;
  hasNumber: boolean;
  hasDeadline: boolean;
  opener: Opener;
  /** The first sentence that asks for something, and where it sits in the body. */
  ask: { sentence: Sentence; position: Position } | null;
}

const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;
const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'jr', 'sr', 'vs', 'e.g', 'i.e', 'approx']);

const SALUTATION =
  /^(?:hi|hello|hey|hiya|dear|greetings|good (?:morning|afternoon|evening))\b(?:(?:dr|mrs?|ms|prof)\.\s|[^,.!?:\n]){0,40}[,:!.]?/i;
/** A first line that is only a name or a group: "Team,", "Dana,". */
const ADDRESS = /^[\p{L}][\p{L} .'’-]{0,30},$/u;
const SIGN_OFF =
  /^(?:thanks|thank you|many thanks|thanks again|best|best regards|best wishes|regards|kind regards|warm regards|warmly|cheers|sincerely|all the best|talk soon|speak soon)\b[\w\s,]{0,24}[.!]?$/i;

export const HEDGE =
  /\b(?:I was (?:just )?wondering(?: if| whether)?|I (?:think|guess|suppose|feel like)|what I['’]m trying to say is(?: that)?|maybe|perhaps|possibly|hopefully|probably|somewhat|just|(?<!\b(?:what|this|that|the|a|any|which|some|same|one|no)\s)(?:sort|kind) of)\b/gi;
/** Words that only amplify: dropped rather than replaced. */
export const INTENSIFIER = /^(?:totally|absolutely|literally|insanely|incredibly|super)$/i;
export const HYPE =
  /\b(?:amazing|incredibl[ey]|awesome|fantastic|phenomenal|revolutionary|groundbreaking|ground-breaking|unprecedented|game[- ]chang(?:er|ing)|mind[- ]blowing|world[- ]class|best[- ]in[- ]class|cutting[- ]edge|next[- ]level|unbelievable|epic|insanely|totally|absolutely|literally|best ever|massive|huge|super)\b/gi;
const VAGUE = /\b(?:a lot|lots of|tons of|stuff|things?|soon|at some point|sometime|somehow|etc|and so on|basically|whatever|a while)\b/gi;
export const PRESSURE =
  /\b(?:asap|as soon as possible|immediately|right now|right away|urgent(?:ly)?|no excuses|non-negotiable|no later than|or else)\b/gi;
const COURTESY =
  /\b(?:please|thanks|thank you|appreciate|grateful|when you have a (?:moment|minute|chance)|when you get a chance|if you can|would you mind|no rush|no pressure|happy to|hope)\b/gi;

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
const DEADLINE = new RegExp(
  [
    '\\b(?:today|tonight|tomorrow|(?:mon|tues|wednes|thurs|fri|satur|sun)day|eod|eow|cob|deadline|due(?! to))\\b',
    '\\bend of (?:the )?(?:day|week|month|quarter)\\b',
    '\\b(?:this|next) (?:week|month|quarter|morning|afternoon|evening)\\b',
    '\\bby (?:noon|midday|\\d)',
    '\\bwithin (?:\\d+|an?|one|two|three) (?:hours?|days?|weeks?)\\b',
    `\\b${MONTH} \\d{1,2}\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?${MONTH}`,
    '\\b\\d{1,2}(?::\\d{2})? ?(?:am|pm)\\b',
    '\\b\\d{1,2}:\\d{2}\\b',
    '\\b\\d{1,2}/\\d{1,2}\\b',
    '\\b\\d{4}-\\d{2}-\\d{2}\\b',
    '\\[date\\]',
  ].join('|'),
  'i',
);

/** A sentence that opens with a bare command ("Send me…"). */
export const IMPERATIVE =
  /^(?:send|share|review|confirm|approve|reply|respond|decide|schedule|book|call|join|sign|submit|check|update|forward|tell|give|get|finish|fix|complete|make|do)\b/i;

const ASK = [
  /\b(?:could|can|would|will) you\b/i,
  /\b(?:could|can|shall|should) we\b/i,
  /\bplease\b/i,
  /\blet me know\b/i,
  /\b(?:I|we)(?: really)? (?:need|want|would like|['’]d like) (?:you|your)\b/i,
  /\bneed (?:you|your)\b/i,
  /\bI(?:['’]d| would) appreciate\b/i,
  /\bit would (?:\w+ )?be (?:good|great|helpful|useful) (?:to|if)\b/i,
  /\b(?:are you able|would you be able|do you have time|would you mind|do you mind)\b/i,
  /\b(?:shall we|let['’]s|let us)\b/i,
  /\b(?:what do you think|any thoughts|your (?:thoughts|input|feedback|approval|decision|sign-off|view|perspective))\b/i,
  IMPERATIVE,
];

const PLEASANTRY =
  /\b(?:hope (?:you|your|all|this|things|everything)|how are you|how have you been|how(?:['’]s| is| was| were| did) (?:you|your|things|everything)|thank you|thanks|appreciate|great (?:to|seeing|catching)|good to (?:see|hear|catch)|nice (?:to|seeing|catching)|lovely (?:to|seeing)|congrat\w*|happy (?:monday|friday|new year|holidays)|glad|it was (?:great|good|nice|lovely)|welcome back|trust you)\b/i;

export function countWords(text: string): number {
  return text.match(WORD)?.length ?? 0;
}

function count(text: string, pattern: RegExp): number {
  return text.match(new RegExp(pattern.source, 'gi'))?.length ?? 0;
}

interface Piece {
  text: string;
  start: number;
  end: number;
}

function piece(draft: string, start: number, end: number): Piece | null {
  const raw = draft.slice(start, end);
  const text = raw.trim();
  if (text.length === 0) return null;
  const from = start + raw.length - raw.trimStart().length;
  return { text, start: from, end: from + text.length };
}

function breakBetween(gap: string | null): Break {
  if (gap === null) return '';
  const newlines = gap.match(/\n/g)?.length ?? 0;
  if (newlines === 0) return ' ';
  return newlines === 1 ? '\n' : '\n\n';
}

/** True when the terminator ending before `end` closes an abbreviation such as "Dr.". */
function endsWithAbbreviation(text: string, end: number): boolean {
  const before = text.slice(Math.max(0, end - 8), end).toLowerCase();
  const word = /([a-z.]+)\.$/.exec(before)?.[1];
  return word !== undefined && ABBREVIATIONS.has(word);
}

/** Splits on line breaks and on `.`, `!`, `?` runs followed by whitespace or the end. */
function splitPieces(draft: string): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  const push = (end: number): void => {
    const found = piece(draft, start, end);
    if (found) pieces.push(found);
    start = end;
  };
  for (let i = 0; i < draft.length; i += 1) {
    const ch = draft[i];
    if (ch === '\n') {
      push(i);
    } else if (ch === '.' || ch === '!' || ch === '?') {
      let end = i + 1;
      while (end < draft.length && /[.!?"'’”)]/.test(draft[end] ?? '')) end += 1;
      const next = draft[end];
      const boundary = next === undefined || /\s/.test(next);
      if (boundary && !(ch === '.' && end === i + 1 && endsWithAbbreviation(draft, end))) push(end);
      i = end - 1;
    }
  }
  push(draft.length);
  return pieces;
}

/** The draft's sentences (and lines), each an exact, trimmed substring of it. */
export function splitSentences(draft: string): string[] {
  return splitPieces(draft).map((p) => p.text);
}

/** A leading "Hi Sam, could you…" becomes two pieces: "Hi Sam," and "could you…". */
function splitSalutation(draft: string, pieces: Piece[]): boolean {
  const first = pieces[0];
  const head = first === undefined ? undefined : SALUTATION.exec(first.text)?.[0];
  if (first !== undefined && ADDRESS.test(first.text) && countWords(first.text) <= 3) return true;
  if (first === undefined || head === undefined) return false;
  if (head.length === first.text.length) return countWords(head) <= 5;
  if (!/[,:]$/.test(head)) return false;
  const rest = piece(draft, first.start + head.length, first.end);
  if (!rest) return false;
  pieces.splice(0, 1, { text: head, start: first.start, end: first.start + head.length }, rest);
  return true;
}

/** Salutation, body and signature (a sign-off and the short lines after it). */
export function parseDraft(draft: string): DraftParts {
  const pieces = splitPieces(draft);
  const hasSalutation = splitSalutation(draft, pieces);
  const sentences = pieces.map((p, i): Sentence => {
    const next = pieces[i + 1];
    const text = p.text;
    return {
      text,
      words: countWords(text),
      isAsk: ASK.some((pattern) => pattern.test(text)),
      isPleasantry: PLEASANTRY.test(text),
      hasDeadline: DEADLINE.test(text),
      breakAfter: breakBetween(next ? draft.slice(p.end, next.start) : null),
    };
  });
  const salutation = hasSalutation ? (sentences.shift() ?? null) : null;
  let signatureStart = sentences.length;
  for (let i = sentences.length - 1; i >= Math.max(0, sentences.length - 3); i -= 1) {
    const candidate = sentences[i];
    if (!candidate || candidate.words > 4) break;
    if (SIGN_OFF.test(candidate.text)) signatureStart = i;
  }
  return { salutation, body: sentences.slice(0, signatureStart), signature: sentences.slice(signatureStart) };
}

function findAll(body: readonly Sentence[], pattern: RegExp): Finding[] {
  const findings: Finding[] = [];
  for (const s of body) {
    for (const match of s.text.matchAll(new RegExp(pattern.source, 'gi'))) {
      findings.push({ text: match[0], sentence: s });
    }
  }
  return findings;
}

/** Which third of the body a sentence sits in; the first sentence is always early. */
function positionOf(index: number, total: number): Position {
  if (index === 0) return 'early';
  const centre = (index + 0.5) / total;
  if (centre < 1 / 3) return 'early';
  return centre > 2 / 3 ? 'late' : 'middle';
}

export function measureDraft(draft: string): DraftFeatures {
  const parts = parseDraft(draft);
  const { salutation, body } = parts;
  const bodyWords = body.reduce((sum, s) => sum + s.words, 0);
  const askIndex = body.findIndex((s) => s.isAsk);
  const askSentence = body[askIndex];
  const opener: Opener = body[0]?.isPleasantry ? 'personal' : salutation ? 'greeting' : 'business';
  return {
    ...parts,
    words: countWords(draft),
    averageSentenceWords: body.length === 0 ? 0 : bodyWords / body.length,
    questionMarks: draft.match(/\?+/g)?.length ?? 0,
    exclamationMarks: draft.match(/!/g)?.length ?? 0,
    hedges: findAll(body, HEDGE),
    hype: findAll(body, HYPE),
    vague: findAll(body, VAGUE),
    pressure: findAll(body, PRESSURE),
    courtesyMarkers: count(draft, COURTESY),
    hasNumber: /\d/.test(draft),
    hasDeadline: body.some((s) => s.hasDeadline),
    opener,
    ask: askSentence ? { sentence: askSentence, position: positionOf(askIndex, body.length) } : null,
  };
}
