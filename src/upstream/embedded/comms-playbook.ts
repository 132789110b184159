/**
 * How to communicate with each of the twelve profiles: the advice the embedded predictor
 * returns, and the measurable draft preferences `scoreDraft` checks a draft against.
 *
 * Data only, plus `wordRangeFor`, which scales a profile's preferred length to a channel.
 */
import type { ProfileName } from '../../domain/profiles';
import type { CommsChannel } from '../../domain/ports';

export type Tolerance = 'low' | 'medium' | 'high';
/** Where the ask belongs: in the opening lines, or after the context that explains it. */
export type Directness = 'ask-first' | 'context-first' | 'either';
/** How the message should open: a personal line, or straight to business. */
export type OpenerStyle = 'warm' | 'business' | 'either';
/** How the message should close: an explicit next step with a date, or an open invitation. */
export type CallToAction = 'explicit' | 'open';

export type DraftFeature =
  | 'length'
  | 'directness'
  | 'callToAction'
  | 'hedging'
  | 'opener'
  | 'questions'
  | 'tone'
  | 'sentenceLength';

export interface WordRange {
  min: number;
  max: number;
}

export interface DraftPreferences {
  /** Preferred length of an email in words; other channels scale it (`wordRangeFor`). */
  emailWords: WordRange;
  /** Longest comfortable average sentence, in words. */
  maxAverageSentenceWords: number;
  directness: Directness;
  /** Low: at most one question. High: a question that invites their view is expected. */
  questions: Tolerance;
  /** Low: no hedging. High: softened, courteous requests are expected. */
  hedging: Tolerance;
  /** Tolerance for superlatives, hype, vague words and exclamation marks. */
  hype: Tolerance;
  opener: OpenerStyle;
  callToAction: CallToAction;
  /** The features this profile cares most about: their weight counts double. */
  priorities: readonly DraftFeature[];
}

export interface Playbook {
  summary: string;
  /** What this profile responds to; the caller's goal is framed around it. */
  motivator: string;
  /** One sentence on how this profile colours another when it is the secondary one. */
  asSecondary: string;
  do: readonly string[];
  dont: readonly string[];
  phrasesToUse: readonly string[];
  phrasesToAvoid: readonly string[];
  draft: DraftPreferences;
}

/** How much of an email's length suits a draft for each channel (a call or meeting: the note or agenda sent ahead). */
const CHANNEL_LENGTH_FACTOR: Readonly<Record<CommsChannel, number>> = {
  email: 1,
  meeting: 0.8,
  call: 0.6,
  chat: 0.35,
};

/** The preferred draft length for a channel; no channel means email. */
export function wordRangeFor(preferences: DraftPreferences, channel?: CommsChannel): WordRange {
  const factor = CHANNEL_LENGTH_FACTOR[channel ?? 'email'];
  const min = Math.max(5, Math.round(preferences.emailWords.min * factor));
  const max = Math.max(min + 15, Math.round(preferences.emailWords.max * factor));
  return { min, max };
}

/** How many hedges a tolerance allows in a draft of `words` words. */
export function hedgeAllowance(tolerance: Tolerance, words: number): number {
  const hundreds = Math.floor(words / 100);
  if (tolerance === 'low') return 0;
  return tolerance === 'medium' ? 1 + hundreds : 3 + 2 * hundreds;
}

/** How many questions a tolerance allows. */
export function questionAllowance(tolerance: Tolerance): number {
  return { low: 1, medium: 2, high: 4 }[tolerance];
}

/** How many hype words, vague words and exclamation marks a tolerance allows. */
export function hypeAllowance(tolerance: Tolerance): number {
  return { low: 0, medium: 2, high: 5 }[tolerance];
}

/** One habit per channel, added to the do list when the caller names a channel. */
export const CHANNEL_TIPS: Readonly<Record<CommsChannel, string>> = {
  email: 'use a subject line that states the purpose and the ask',
  chat: 'make one point per message, and move anything complex to a call',
  call: 'send a short agenda beforehand, and recap the agreed next step in writing',
  meeting: 'share the agenda in advance, and close with owners and dates',
};

export const COMMS_PLAYBOOK: Readonly<Record<ProfileName, Playbook>> = {
  Trailblazer: {
    summary:
      'Trailblazers move fast, take initiative and want room to run. Be brief, lead with the opportunity and the decision you need, and leave them ownership of how to get there.',
    motivator: 'a new opportunity, speed and ownership of the result',
    asSecondary: 'Their Trailblazer side wants the point early and room to act on it.',
    do: [
      'Lead with the opportunity and the decision you need in the first two sentences.',
      'Keep it short: one topic per message, with detail available on request.',
      'Agree on the what and the deadline, and leave them ownership of the how.',
      'Close with a clear next step and a date so they can act at once.',
      'Acknowledge their initiative and past wins concretely.',
    ],
    dont: [
      "Don't bury the ask under background or pleasantries.",
      "Don't prescribe every step of the method.",
      "Don't hedge or over-qualify: uncertainty reads as lack of conviction.",
      "Don't slow them with process for its own sake; say why a step is needed.",
      "Don't send long status updates with no decision in them.",
    ],
    phrasesToUse: [
      "Here's the opportunity:",
      'Your call on how we get there.',
      'Can you own this by Friday?',
      'The fastest path is…',
      "You'd be the first to…",
    ],
    phrasesToAvoid: [
      "We've always done it this way.",
      "Let's wait and see.",
      'I was just wondering if maybe…',
      'Follow the standard procedure.',
      "Let's set up a committee to review it.",
    ],
    draft: {
      emailWords: { min: 40, max: 120 },
      maxAverageSentenceWords: 16,
      directness: 'ask-first',
      questions: 'low',
      hedging: 'low',
      hype: 'medium',
      opener: 'business',
      callToAction: 'explicit',
      priorities: ['directness', 'callToAction'],
    },
  },
  Challenger: {
    summary:
      'Challengers are direct, results-driven and test every idea by pushing on it. Get to the point, state your position with evidence and a clear ask, and expect debate: hold your ground on substance rather than backing off.',
    motivator: 'results, winning and a decision they can act on',
    asSecondary: 'Their Challenger side will test your argument, so bring evidence and state the ask plainly.',
    do: [
      'Put the ask or conclusion in the first sentence.',
      'Back claims with one or two hard facts or results.',
      'State your position confidently and invite them to challenge it.',
      'Give an explicit deadline and say what happens next.',
      'Keep it short; offer detail only if they ask for it.',
    ],
    dont: [
      "Don't ramble through background before the point.",
      "Don't hedge, apologise or over-soften the request.",
      "Don't take pushback personally or retreat at the first objection.",
      "Don't pad the message with small talk or flattery.",
      "Don't leave the decision or the next step implicit.",
    ],
    phrasesToUse: [
      'Bottom line:',
      'I need a decision by Thursday.',
      "Here's the evidence:",
      'Push back if you see it differently.',
      'What would it take to win this?',
    ],
    phrasesToAvoid: [
      'Sorry to bother you, but…',
      'I think maybe we could possibly…',
      'Whenever you get a chance, no pressure.',
      "I'm not sure, but…",
      'Just checking in.',
    ],
    draft: {
      emailWords: { min: 30, max: 100 },
      maxAverageSentenceWords: 15,
      directness: 'ask-first',
      questions: 'low',
      hedging: 'low',
      hype: 'medium',
      opener: 'business',
      callToAction: 'explicit',
      priorities: ['directness', 'length'],
    },
  },
  Visionary: {
    summary:
      'Visionaries think in possibilities and long horizons. Start with the why and where it leads, connect your point to the larger direction, and invite their ideas; keep operational detail light and available on request.',
    motivator: 'the bigger picture, long-term impact and room for new ideas',
    asSecondary: 'Their Visionary side wants to see how this fits the bigger picture.',
    do: [
      'Open with the purpose and the future it points to, before the details.',
      'Connect the request to the long-term direction or mission.',
      'Invite their ideas with open questions.',
      'Summarise the detail in one line and offer the rest on request.',
      'Leave room to explore alternatives before locking in the plan.',
    ],
    dont: [
      "Don't open with line-item detail or procedure.",
      "Don't dismiss ideas as unrealistic before exploring them.",
      "Don't frame the conversation only around constraints and risk.",
      "Don't force a yes or no on a half-formed idea.",
      "Don't leave the purpose until the end.",
    ],
    phrasesToUse: [
      'Imagine where this could take us…',
      'The bigger picture is…',
      'What would you build on this?',
      'This moves us toward…',
      "I'd love your take on the direction.",
    ],
    phrasesToAvoid: [
      "That's not how we do things.",
      'Stick to the spec.',
      "That's unrealistic.",
      "Let's not get ahead of ourselves.",
      'Just the details, please.',
    ],
    draft: {
      emailWords: { min: 60, max: 180 },
      maxAverageSentenceWords: 22,
      directness: 'context-first',
      questions: 'high',
      hedging: 'medium',
      hype: 'high',
      opener: 'business',
      callToAction: 'open',
      priorities: ['directness', 'questions'],
    },
  },
  Catalyst: {
    summary:
      'Catalysts bring energy and get things moving. Match their enthusiasm with a warm, upbeat opener, get to the exciting part quickly, and turn the energy into a concrete next step before it fades.',
    motivator: 'momentum, energy and visible progress',
    asSecondary: 'Their Catalyst side responds to energy and a quick, concrete next step.',
    do: [
      'Open warmly and with some energy.',
      'Get to the exciting part fast; keep it short and lively.',
      'Turn the enthusiasm into a concrete next step with a date.',
      'Recognise their energy and ideas in front of others where you can.',
      'Let them shape how it happens rather than handing them a script.',
    ],
    dont: [
      "Don't open with a wall of detail or caveats.",
      "Don't drain the energy with a long list of risks up front.",
      "Don't end the conversation without a next step.",
      "Don't be flat or overly formal.",
      "Don't tie them to a rigid, step-by-step plan.",
    ],
    phrasesToUse: [
      'This is exciting:',
      "Let's get this moving.",
      'Can we kick off on Monday?',
      'Your energy would make this work.',
      'Quick win:',
    ],
    phrasesToAvoid: [
      'Please read the attached 20-page document first.',
      "Let's slow down.",
      'Per my previous email…',
      'There are several risks to consider before we begin.',
      "We'll see.",
    ],
    draft: {
      emailWords: { min: 40, max: 130 },
      maxAverageSentenceWords: 16,
      directness: 'ask-first',
      questions: 'medium',
      hedging: 'medium',
      hype: 'high',
      opener: 'warm',
      callToAction: 'explicit',
      priorities: ['opener', 'callToAction'],
    },
  },
  Connector: {
    summary:
      'Connectors think in relationships and networks. Open warmly, mention the people involved, frame the request as a collaboration, and leave it as an open invitation rather than a demand.',
    motivator: 'people, relationships and working together',
    asSecondary: 'Their Connector side wants to know who else is involved and to feel invited in.',
    do: [
      'Start with a warm, personal opener.',
      'Mention the people involved and how they benefit.',
      "Frame the ask as a collaboration: 'we', not 'you'.",
      'Invite their input and introductions with an open question.',
      'Follow up in person or by call when the topic matters.',
    ],
    dont: [
      "Don't launch straight into a cold request.",
      "Don't leave out who else is involved or affected.",
      "Don't make it feel transactional or one-way.",
      "Don't pressure them with hard ultimatums.",
      "Don't leave them out of decisions that affect their network.",
    ],
    phrasesToUse: [
      "It'd be great to work on this together.",
      'Who else should we bring in?',
      "Sam mentioned you'd be the right person to ask.",
      'How will this land with the team?',
      "I'd love to hear your thoughts.",
    ],
    phrasesToAvoid: [
      'Just do it by EOD.',
      "This doesn't concern anyone else.",
      'Per policy, no exceptions.',
      "Don't loop anyone in.",
      'FYI, decision made.',
    ],
    draft: {
      emailWords: { min: 60, max: 180 },
      maxAverageSentenceWords: 22,
      directness: 'context-first',
      questions: 'high',
      hedging: 'medium',
      hype: 'medium',
      opener: 'warm',
      callToAction: 'open',
      priorities: ['opener', 'questions'],
    },
  },
  Ambassador: {
    summary:
      'Ambassadors are persuasive, image-aware and energised by representing a cause they believe in. Be warm and polished, show how the request reflects well on them and the team, and make the ask and the next step clear.',
    motivator: 'recognition, reputation and a story they can champion',
    asSecondary: 'Their Ambassador side wants a story they can stand behind and credit for carrying it.',
    do: [
      'Open warmly and acknowledge their influence.',
      'Give them a clear story they can repeat to others.',
      'Show how the request reflects well on them and the team.',
      'Make the ask and the next step explicit.',
      'Offer them a visible role: presenting, representing, championing.',
    ],
    dont: [
      "Don't undercut or correct them in front of others.",
      "Don't send dry, impersonal requests.",
      "Don't leave them without the talking points to represent the idea.",
      "Don't take credit for work they championed.",
      "Don't drown the message in technical detail.",
    ],
    phrasesToUse: [
      "You'd be the right person to present this.",
      'This is a great story for the team.',
      'Here are the three points to share:',
      "Could you champion this at Thursday's meeting?",
      'People listen to you on this.',
    ],
    phrasesToAvoid: [
      'Just forward this along.',
      "Nobody will see this anyway.",
      'Keep this quiet.',
      "It doesn't matter who presents.",
      'Read the attached spec.',
    ],
    draft: {
      emailWords: { min: 50, max: 150 },
      maxAverageSentenceWords: 20,
      directness: 'ask-first',
      questions: 'medium',
      hedging: 'medium',
      hype: 'high',
      opener: 'warm',
      callToAction: 'explicit',
      priorities: ['opener', 'callToAction'],
    },
  },
  Nurturer: {
    summary:
      "Nurturers care about people's wellbeing and the relationships behind the work. Open personally, acknowledge the human side, make requests gently with room for them to say how they feel, and thank them for the care they put in.",
    motivator: "people's wellbeing and the chance to help",
    asSecondary: 'Their Nurturer side wants to hear how this affects the people involved.',
    do: [
      'Open with a genuine personal note before business.',
      "Acknowledge the effort and care they've put in.",
      'Explain how the request helps or affects the people involved.',
      'Make the request gently, with room for them to raise concerns.',
      "Say thank you and check in on how they're doing.",
    ],
    dont: [
      "Don't send cold one-line demands.",
      "Don't impose hard deadlines without explaining why.",
      "Don't ignore the impact on people in favour of the numbers.",
      "Don't be curt or sarcastic, even in chat.",
      "Don't take their helpfulness for granted.",
    ],
    phrasesToUse: [
      'How are you doing?',
      "I really appreciate how you've supported the team.",
      'When you have a moment, could you…',
      'How do you feel about this?',
      'Thank you for looking after this.',
    ],
    phrasesToAvoid: [
      'Do this now.',
      'I need it by EOD, no excuses.',
      "That's not my problem.",
      'Just get it done.',
      'Feelings aside…',
    ],
    draft: {
      emailWords: { min: 50, max: 200 },
      maxAverageSentenceWords: 22,
      directness: 'context-first',
      questions: 'high',
      hedging: 'high',
      hype: 'medium',
      opener: 'warm',
      callToAction: 'open',
      priorities: ['opener', 'hedging'],
    },
  },
  Peacemaker: {
    summary:
      'Peacemakers value harmony, consensus and a calm pace. Give the context first, frame the topic as shared rather than confrontational, leave room and time for their view, and avoid pressure or ultimatums.',
    motivator: 'harmony, agreement and a calm, fair process',
    asSecondary: 'Their Peacemaker side wants to know everyone has been heard and no one is put on the spot.',
    do: [
      'Give the context and reasons before the request.',
      'Frame disagreements as a shared problem to solve.',
      'Ask for their view and give them time to think.',
      "Show that others' views have been considered.",
      'Offer a low-pressure next step.',
    ],
    dont: [
      "Don't issue ultimatums or create artificial urgency.",
      "Don't put them on the spot in front of others.",
      "Don't frame the conversation as a confrontation or a contest.",
      "Don't force a quick yes or no.",
      "Don't dismiss their concerns as overthinking.",
    ],
    phrasesToUse: [
      "I'd value your perspective.",
      'Take the time you need.',
      'How can we find something that works for everyone?',
      'No pressure: let me know what you think.',
      "We're on the same side here.",
    ],
    phrasesToAvoid: [
      'Decide now.',
      'This is non-negotiable.',
      "You're wrong about this.",
      'I need this ASAP.',
      "Either you're in or you're out.",
    ],
    draft: {
      emailWords: { min: 60, max: 180 },
      maxAverageSentenceWords: 22,
      directness: 'context-first',
      questions: 'medium',
      hedging: 'high',
      hype: 'medium',
      opener: 'warm',
      callToAction: 'open',
      priorities: ['hedging', 'callToAction'],
    },
  },
  Steward: {
    summary:
      'Stewards are dependable, loyal and protective of what already works. Be courteous and steady, explain how a change fits existing commitments, and give a clear plan with dates so they can follow through reliably.',
    motivator: 'stability, reliability and honouring commitments',
    asSecondary: 'Their Steward side wants to know how this fits existing commitments and what stays stable.',
    do: [
      'Open courteously and acknowledge their reliability.',
      'Explain why the change is needed and what stays the same.',
      'Give a clear plan: steps, owners and dates.',
      'Give advance notice rather than last-minute requests.',
      'Follow through on what you promised, and say so.',
    ],
    dont: [
      "Don't spring sudden changes or last-minute deadlines.",
      "Don't dismiss existing processes or past decisions.",
      "Don't oversell with hype or vague promises.",
      "Don't leave roles or responsibilities ambiguous.",
      "Don't break commitments without an explanation.",
    ],
    phrasesToUse: [
      "Here's the plan and the timeline:",
      "This builds on what's already working.",
      'Thank you for keeping this on track.',
      'Could you confirm by Wednesday the 12th?',
      'What stays the same is…',
    ],
    phrasesToAvoid: [
      "Let's scrap the old process.",
      "We'll figure it out as we go.",
      'This changes everything!',
      'I need this in an hour.',
      "Trust me, it'll be fine.",
    ],
    draft: {
      emailWords: { min: 60, max: 180 },
      maxAverageSentenceWords: 20,
      directness: 'context-first',
      questions: 'medium',
      hedging: 'medium',
      hype: 'low',
      opener: 'warm',
      callToAction: 'explicit',
      priorities: ['callToAction', 'tone'],
    },
  },
  Systematizer: {
    summary:
      'Systematizers think in structure, process and efficiency. State the purpose and the ask up front, then lay out the detail in a clear, ordered structure with owners, steps and deadlines.',
    motivator: 'clear structure, an efficient process and well-defined outcomes',
    asSecondary: 'Their Systematizer side wants the request in an ordered structure with owners and dates.',
    do: [
      'State the purpose and the ask in the first lines.',
      'Use a numbered list or clear sections for the detail.',
      'Name owners, steps and deadlines.',
      'Say which process or system the request fits into.',
      'Keep sentences short and unambiguous.',
    ],
    dont: [
      "Don't send unstructured, stream-of-consciousness messages.",
      "Don't leave steps, owners or dates undefined.",
      "Don't change the plan without updating the process.",
      "Don't rely on hype or emotional appeals.",
      "Don't mix several unrelated requests in one paragraph.",
    ],
    phrasesToUse: [
      'Purpose: … Ask: … Deadline: …',
      'Step 1, step 2, step 3:',
      'Owner and due date:',
      'This fits into the existing workflow at…',
      'Please confirm by 3 pm on Friday.',
    ],
    phrasesToAvoid: [
      "Let's just wing it.",
      "We'll sort out the details later.",
      'Sort of like what we did before, maybe.',
      "It'll be awesome!",
      'Whatever works.',
    ],
    draft: {
      emailWords: { min: 50, max: 180 },
      maxAverageSentenceWords: 18,
      directness: 'ask-first',
      questions: 'medium',
      hedging: 'low',
      hype: 'low',
      opener: 'business',
      callToAction: 'explicit',
      priorities: ['callToAction', 'sentenceLength'],
    },
  },
  Precisionist: {
    summary:
      'Precisionists value accuracy, evidence and quality. Lead with data and specifics, give the context and reasoning behind the request, avoid vague superlatives, and give them time to review before a clear, realistic deadline.',
    motivator: 'accuracy, evidence and a result done right',
    asSecondary: 'Their Precisionist side wants specifics and evidence behind every claim.',
    do: [
      'Lead with data, figures and specifics.',
      'Explain the reasoning and assumptions behind the request.',
      'Attach or link the source material so they can verify it.',
      'Give them time to review, with a clear and realistic deadline.',
      'Be exact about scope, quantities and dates.',
    ],
    dont: [
      "Don't use vague superlatives or hype.",
      "Don't make claims you can't back with evidence.",
      "Don't rush them into a decision without the facts.",
      "Don't gloss over errors or uncertainty; state them precisely.",
      "Don't be imprecise about dates or numbers ('soon', 'a lot').",
    ],
    phrasesToUse: [
      'The data shows…',
      'Specifically:',
      "Here's the source, so you can verify it:",
      'Could you review it by Thursday at 14:00?',
      'The known limitation is…',
    ],
    phrasesToAvoid: [
      'This is amazing!',
      "Trust me, it'll work.",
      'Roughly, more or less.',
      "We'll fix the details later.",
      "It's the best ever.",
    ],
    draft: {
      emailWords: { min: 70, max: 250 },
      maxAverageSentenceWords: 24,
      directness: 'context-first',
      questions: 'medium',
      hedging: 'low',
      hype: 'low',
      opener: 'business',
      callToAction: 'explicit',
      priorities: ['tone', 'callToAction'],
    },
  },
  Investigator: {
    summary:
      'Investigators are analytical and curious, and want to understand before they commit. Give background, evidence and open questions, respect their need to dig in on their own, and invite their analysis rather than pushing for a fast answer.',
    motivator: 'understanding, sound reasoning and well-tested evidence',
    asSecondary: 'Their Investigator side wants the evidence and time to think it through.',
    do: [
      'Give background and evidence before the ask.',
      'Share sources and data they can analyse themselves.',
      'Pose open questions that invite their analysis.',
      'Give them time to research before deciding.',
      'Acknowledge unknowns and explain how you reached your conclusion.',
    ],
    dont: [
      "Don't push for an instant decision.",
      "Don't rely on hype, authority or emotion instead of evidence.",
      "Don't hide uncertainty or gaps in the data.",
      "Don't interrupt their analysis with frequent check-ins.",
      "Don't give conclusions without the reasoning behind them.",
    ],
    phrasesToUse: [
      "Here's the evidence so far:",
      "What's your read on this?",
      'One open question is…',
      'Take the time you need to dig in.',
      'This is how I reached that conclusion:',
    ],
    phrasesToAvoid: [
      'Just trust me.',
      "We don't have time to look into it.",
      'Everyone agrees, so…',
      "It's a game-changer!",
      'Decide by the end of the day.',
    ],
    draft: {
      emailWords: { min: 70, max: 250 },
      maxAverageSentenceWords: 24,
      directness: 'context-first',
      questions: 'high',
      hedging: 'medium',
      hype: 'low',
      opener: 'business',
      callToAction: 'open',
      priorities: ['tone', 'questions'],
    },
  },
};

/** Balanced advice for a snap without a predicted profile. */
export const GENERAL_PLAYBOOK: Playbook = {
  summary:
    'No profile is available, so use habits that work with most people: a courteous opener, a clear purpose, specifics where they matter and an explicit next step.',
  motivator: 'a clear purpose and a fair, specific request',
  asSecondary: '',
  do: [
    'State the purpose of the message in the first lines.',
    'Be specific about what you need, from whom and by when.',
    'Give enough context for the request to make sense on its own.',
    'Close with one clear next step.',
    'Thank them for their time.',
  ],
  dont: [
    "Don't bury the request in the middle of a long message.",
    "Don't hedge so much that the ask becomes unclear.",
    "Don't rely on hype or superlatives instead of facts.",
    "Don't ask several unrelated questions at once.",
  ],
  phrasesToUse: [
    "I'm writing about…",
    'Could you … by Thursday?',
    'The next step is…',
    'Thank you for your time.',
  ],
  phrasesToAvoid: [
    'Just checking in.',
    'Sorry to bother you, but…',
    'ASAP!!!',
    "It's the best thing ever.",
  ],
  draft: {
    emailWords: { min: 40, max: 180 },
    maxAverageSentenceWords: 20,
    directness: 'either',
    questions: 'medium',
    hedging: 'medium',
    hype: 'medium',
    opener: 'either',
    callToAction: 'explicit',
    priorities: [],
  },
};
