/**
 * The embedded comms analysis: the profile's playbook (or a neutral one when no
 * profile was predicted), the caller's goal and channel woven in, and the draft
 * scored when there is one. Deterministic: no randomness, no clock.
 *
 * The goal and the draft are untrusted text: they are only quoted as data, never
 * interpreted. The person is never named (the request has no name): the texts say
 * "The person", and the service puts the name in.
 */
import { codeOf, type ProfileName } from '../../domain/profiles';
import type { CommsAnalysis, CommsChannel, CommsRequest } from '../../domain/ports';
import { SUBJECT_REFERENCE } from '../../domain/subject-name';
import { CHANNEL_TIPS, COMMS_PLAYBOOK, GENERAL_PLAYBOOK, wordRangeFor, type Playbook } from './comms-playbook';
import { scoreDraftAgainst } from './draft-scoring';

const MAX_GOAL_CHARS = 500;

/** One line of plain text: control and format characters and whitespace runs become one space. */
function plainText(text: string, maxChars: number): string {
  return text.replace(/[\p{Cc}\p{Cf}\s]+/gu, ' ').trim().slice(0, maxChars).trim();
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function withArticle(profile: ProfileName): string {
  return `${/^[AEIOU]/.test(profile) ? 'an' : 'a'} ${profile}`;
}

function summaryOf(request: CommsRequest, playbook: Playbook): string {
  const parts: string[] = [];
  const { profile } = request;
  if (profile) {
    const secondary = request.secondaryProfile !== profile ? request.secondaryProfile : null;
    const side = secondary ? ` with ${withArticle(secondary)} side` : '';
    parts.push(`${capitalise(SUBJECT_REFERENCE)} reads as ${withArticle(profile)}${side}.`, playbook.summary);
    if (secondary) parts.push(COMMS_PLAYBOOK[secondary].asSecondary);
  } else {
    parts.push(playbook.summary);
  }
  const goal = plainText(request.goal ?? '', MAX_GOAL_CHARS);
  if (goal) parts.push(`Your goal is "${goal}": frame it in terms of ${playbook.motivator}.`);
  return parts.join(' ');
}

function channelTip(playbook: Playbook, channel: CommsChannel): string {
  const { min, max } = wordRangeFor(playbook.draft, channel);
  return `On ${channel}, keep what you write to about ${min}–${max} words; ${CHANNEL_TIPS[channel]}.`;
}

export function analyseCommsEmbedded(request: CommsRequest): CommsAnalysis {
  const { profile, channel, draft } = request;
  const playbook = profile ? COMMS_PLAYBOOK[profile] : GENERAL_PLAYBOOK;
  const hasDraft = draft !== undefined && draft.trim().length > 0;
  return {
    profile,
    primary_code: profile ? codeOf(profile) : null,
    summary: summaryOf(request, playbook),
    do: channel ? [...playbook.do, channelTip(playbook, channel)] : [...playbook.do],
    dont: [...playbook.dont],
    phrases_to_use: [...playbook.phrasesToUse],
    phrases_to_avoid: [...playbook.phrasesToAvoid],
    draft_analysis: hasDraft ? scoreDraftAgainst(draft, playbook.draft, profile, channel) : null,
  };
}
