/**
 * The terms of the embedded snap predictor's lexicon: for each profile, the English words,
 * stems and phrases that signal it in notes and job titles (syntax in `snap-lexicon.ts`).
 *
 * Written from what each profile means (`PROFILE_DESCRIPTIONS` in
 * `src/upstream/openai/taxonomy-prompt.ts`, and the summaries in `snap-lexicon.ts`): for
 * each part of the description, the words people use for that behaviour when they
 * describe a colleague (adjectives, verbs, the nouns of what the person deals in, common
 * phrases), not words picked from the evaluation set's texts. Then checked on the
 * evaluation set's development half only (docs/evaluation.md): context nouns that misled
 * there were dropped ("neighbours", "clients", "community", "conference") and a few
 * idioms added ("line by line", "fit and finish"); no held-out text was read.
 *
 * Rules: no two profiles share a one-word term; a phrase may hold another profile's word
 * and then wins over it ("asks questions" is the phrase, "questions" alone is not counted
 * again). Stems are long enough to avoid common false friends (`carer*` not `care*`,
 * `plann*` not `plan*`). After changing a list, run `make lexicon-synonyms`.
 */
import type { ProfileName } from '../../domain/profiles';

export const SNAP_TERMS: Readonly<Record<ProfileName, readonly string[]>> = {
  // pioneers untried paths; decisive, independent, quick to act on their own judgement
  Trailblazer: [
    'pioneer*', 'trailblaz*', 'groundbreak*', 'new ground', 'break* new ground', 'uncharted', 'unexplored',
    'unmapped', 'untried', 'untested', 'unproven', 'unknown', 'unfamiliar', 'never been done', 'never tried',
    'nobody had', 'nobody has', 'no one had', 'no one has', 'nobody else', 'first to', 'first ever', 'frontier*',
    'off the beaten', 'explorer*', 'expedition*', 'adventur*', 'ventur*', 'founder*', 'founded', 'cofound*',
    'startup*', 'start up', 'entrepreneur*', 'self starter*', 'maverick*', 'rebel*', 'unconventional', 'unorthodox',
    'experimental', 'risk*', 'gambl*', 'bet', 'dare', 'dares', 'daring', 'bold*', 'brave*', 'fearless*', 'courag*',
    'intrepid*', 'audaci*', 'decisive*', 'decides fast', 'decides quickly', 'on the spot', 'snap decision*',
    'make* the call', 'makes calls', 'own call', 'independen*', 'autonom*', 'own initiative', 'initiative',
    'own authority', 'own judgement', 'own judgment', 'own terms', 'own way', 'on instinct', 'instinct*', 'gut',
    'alone', 'solo', 'single handed*', 'lone', 'went ahead', 'goes ahead', 'without waiting', 'without permission',
    'without asking', 'without approval', 'doesnt wait', 'didnt wait', 'wont wait', 'before anyone', 'ahead of',
    'before approval', 'acts first', 'act first', 'moves first', 'move first', 'jump* in', 'dive* in', 'head first',
    'headfirst', 'leap*', 'improvis*', 'try anything', 'tries anything', 'regardless', 'bets', 'betting',
    'first mover*', 'early adopter*', 'goes first', 'go first', 'went first', 'lead* the way', 'new path*',
    'own path', 'strike* out', 'struck out', 'self reliant', 'self directed', 'free spirit*', 'doesnt ask',
    'never asks', 'took the plunge', 'plunge', 'leap of faith', 'walked away', 'bend* the rules',
    'ahead of the curve', 'cutting edge', 'bleeding edge', 'trial and error', 'go it alone', 'scrappy',
  ],
  // direct and competitive; questions assumptions and pushes hard for results
  Challenger: [
    'challeng*', 'direct', 'blunt*', 'frankly', 'frankness', 'candid*', 'forthright', 'outspoken', 'straight talk*',
    'straight talking', 'no nonsense', 'no filter', 'plainly', 'tell* it like it is', 'says what', 'speaks up',
    'speaks out', 'debat*', 'argu*', 'disagree*', 'disput*', 'contest*', 'contradict*', 'objection*', 'objects to',
    'question* assumption*', 'questions everything', 'questions authority', 'devils advocate', 'status quo',
    'compet*', 'rival*', 'win', 'wins', 'winning', 'winner*', 'to win', 'victory', 'victories', 'victorious', 'beat',
    'beating', 'keep* score', 'tally', 'scoreboard', 'league table', 'ranking*', 'ranks', 'tough', 'toughest',
    'hard nosed', 'hardline', 'hard line', 'combative', 'fight*', 'fighter*', 'battle*', 'confront*', 'clash*',
    'provoc*', 'provok*', 'aggressiv*', 'assertive*', 'forceful*', 'pushy', 'push* hard', 'push* back', 'pushback',
    'presses hard', 'press* for', 'demanding', 'demands', 'relentless*', 'driven', 'result* driven',
    'result* oriented', 'results', 'bottom line', 'quota*', 'stand* up to', 'take* them on', 'back down',
    'not back down', 'wont back down', 'never backs down', 'doesnt back down', 'refuses to accept', 'call* out',
    'pick* apart', 'tear* apart', 'criticis*', 'criticiz*', 'critique*', 'critic', 'critics', 'harsh*',
    'sharp tongue*', 'abrasive', 'brash', 'feisty', 'fierce*', 'ruthless*', 'cutthroat', 'ambitio*', 'haggl*',
    'bargain*', 'negotiat*', 'lawyer*', 'attorney*', 'litigat*', 'prosecut*', 'interrogat*', 'reject*', 'grill*',
    'cross exam*', 'hold* to account', 'attacks', 'attacking', 'accountab*', 'no excuses', 'pressur*', 'intimidat*',
    'contrarian', 'opinionated', 'stubborn*', 'headstrong', 'strong willed', 'strong opinions', 'strong views',
    'suffer fools', 'high expectations', 'kpi*', 'scorecard*', 'hate* to lose', 'sore loser', 'no prisoners',
    'hard questions', 'tough questions', 'awkward questions', 'difficult questions', 'hold* ground', 'holds firm',
    'stand* firm', 'budge', 'goes after', 'go after',
  ],
  // big-picture thinker; imagines future possibilities and rallies others toward them
  Visionary: [
    'vision*', 'big picture', 'bigger picture', 'paint* a picture', 'futur*', 'long term', 'long range', 'long view',
    'years ahead', 'years from now', 'next century', 'tomorrows', 'imagin*', 'envisag*', 'envision*', 'dream*',
    'ideas', 'ideal', 'ideals', 'idealis*', 'concept*', 'possibilit*', 'potential', 'what could be', 'could become',
    'could look like', 'what if', 'imagine if', 'purpose', 'mission', 'innovat*', 'transform*', 'revolution*',
    'reinvent*', 'reimagin*', 'rethink*', 'refram*', 'disrupt*', 'paradigm*', 'moonshot*', 'blue sky', 'abstract',
    'philosoph*', 'speculat*', 'foresee*', 'foresight', 'anticipat*', 'trend*', 'predicts', 'predicted', 'predicting',
    'prediction*', 'forecast*', 'horizon*', 'sweeping', 'utopi*', 'creativ*', 'strateg*', 'roadmap*', 'north star',
    'aspiration*', 'aspire*', 'zoom* out', 'zooming out', 'thinks ahead', 'what comes next', 'ahead of their time',
    'science fiction', 'sci fi', 'futurist*', 'direction', 'long horizon*', 'the why', 'decades ahead', 'in decades',
    'invent', 'invents', 'invented', 'inventor*', 'invention*', 'inventive', 'year view', 'years view', 'big ideas',
    'bigger ideas', 'think* big', 'sees the future', 'what might be', 'one day', 'someday', 'years out', 'long game',
    'long run', 'manifesto*', 'mission statement', 'conceptual', 'ideolog*', 'out of the box', 'outside the box',
    'lateral*', 'original thinker', 'original thinking', 'sees possibilities', 'sees potential', 'opportunit*',
    'connect* the dots', 'next big', 'game chang*', 'head in the clouds',
  ],
  // energetic initiator; sparks momentum and gets others moving
  Catalyst: [
    'energ*', 'enthusias*', 'spark*', 'catalys*', 'momentum', 'motivat*', 'inspir*', 'rally', 'rallies', 'rallying',
    'rouse*', 'rousing', 'fire* up', 'fired up', 'firing up', 'get* going', 'get* moving', 'get* people going',
    'get* things moving', 'gets things started', 'get* things started', 'get* everyone', 'get* people moving',
    'get* it moving', 'kick* off', 'kickoff*', 'kickstart*', 'kick start*', 'jumpstart*', 'jolt', 'buzz*', 'lively',
    'liveli*', 'animated', 'vibrant', 'bubbly', 'high energy', 'upbeat', 'peppy', 'zest*', 'vigour', 'vigor*',
    'vivacious', 'exuberan*', 'spirited', 'dynamic', 'fast paced', 'pace', 'tempo', 'hurry', 'impatien*',
    'hates waiting', 'action', 'into action', 'bias for action', 'action oriented', 'make* it happen',
    'makes things happen', 'doer', 'initiator*', 'initiates', 'initiated', 'launch*', 'mobilis*', 'mobiliz*',
    'galvani*', 'stir*', 'whip* up', 'campaign*', 'cheer*', 'pep talk*', 'passion*', 'excit*', 'thrill*', 'hype*',
    'infectious', 'contagious', 'spontan*', 'hustl*', 'set* in motion', 'sets things', 'ball rolling',
    'turns ideas into', 'turns talk into', 'turn* an idea into', 'join in', 'joining in', 'on board',
    'start* something', 'starts things', 'first step*', 'quick to act', 'revitalis*', 'revitaliz*', 'stalled',
    'restart*', 'revive*', 'electric', 'electrifying', 'get* things going', 'get* everyone going', 'get* them going',
    'get* the team going', 'pumped', 'hyped', 'lights a fire', 'live wire', 'full of beans', 'sit* still',
    'on the go', 'go getter', 'get up and go', 'can do', 'gung ho', 'keen', 'eager*', 'buzzing', 'zeal*',
    'push* things forward', 'push* things along', 'move* things along', 'move* things forward',
    'drive* things forward', 'kick* things off', 'liven*', 'urgency', 'quick wins', 'call* to action',
  ],
  // relationship builder; links people, ideas and networks together
  Connector: [
    'network*', 'connect*', 'relationship*', 'introduc*', 'matchmak*', 'match* people', 'matches people',
    'match* them', 'matching people', 'puts people in touch', 'in touch', 'in contact', 'contact with',
    'knows everyone', 'knows everybody', 'knows all', 'knows every', 'everyone knows', 'knows who', 'who knows who',
    'first name*', 'by name', 'remembers names', 'remember* every', 'remembers everyone', 'people person', 'sociab*',
    'sociali*', 'social butterfl*', 'gregarious', 'outgoing', 'extrovert*', 'chatty', 'talkative', 'friendly',
    'friends', 'friendship*', 'befriend*', 'makes friends', 'mingl*', 'meetup*', 'mixer*', 'host', 'hosts', 'hosting',
    'hosted', 'web of', 'link*', 'bridg*', 'hub', 'go between', 'bring* people together', 'bring* together',
    'across teams', 'across departments', 'word of mouth', 'referral*', 'acquaint*', 'rolodex', 'address book',
    'recruit*', 'should talk', 'should meet', 'small talk', 'keeps up with', 'catch* up with', 'alumni', 'chats',
    'chatting', 'knows people', 'knows someone', 'knows somebody', 'right people', 'right person', 'who to ask',
    'who to call', 'put* people together', 'put* in touch', 'lunches', 'coffees', 'drinks with', 'popular',
    'likeable', 'well liked', 'everyones friend', 'gossip*', 'chit chat', 'banter', 'schmooz*', 'glad hand*',
    'rapport', 'cross team', 'cross functional', 'silos', 'between teams', 'between departments', 'between groups',
    'liais*', 'get together*', 'reunion*',
  ],
  // persuasive and sociable; represents the group and wins support for it
  Ambassador: [
    'ambassador*', 'represent*', 'spokes*', 'speak* for', 'speaks on behalf', 'on behalf', 'behalf', 'voice of',
    'the voice', 'public voice', 'public face', 'face of', 'persua*', 'convinc*', 'win* over', 'won over',
    'wins people over', 'win* people over', 'talk* round', 'talks people round', 'win* support', 'lobb*', 'advocat*',
    'champion*', 'pitch*', 'presents', 'presenting', 'presentation*', 'presenter*', 'public speak*', 'press', 'media',
    'polish*', 'eloquen*', 'articulate', 'charism*', 'charm*', 'smooth*', 'poise*', 'image', 'reputation*', 'brand*',
    'perceiv*', 'perception', 'how it looks', 'appearances', 'impression*', 'story', 'stories', 'storytell*',
    'narrative*', 'on message', 'messaging', 'sell', 'sells', 'selling', 'salesperson', 'sales', 'promotes',
    'promoting', 'promoter*', 'marketing', 'publicis*', 'publicity', 'public relations', 'diplomat', 'diplomats',
    'envoy*', 'delegat*', 'influenc*', 'evangel*', 'customer facing', 'account manager*', 'business development',
    'keynote*', 'speech*', 'speaker*', 'on stage', 'podium', 'camera*', 'audience*', 'crowd*', 'works the room',
    'stakeholder*', 'donor*', 'sponsor*', 'fundrais*', 'makes the case', 'demos', 'win* people round',
    'bring* people round', 'buy in', 'well spoken', 'well presented', 'well dressed', 'front man', 'front person',
    'frontman', 'public facing', 'outward facing', 'talk* up', 'sings the praises', 'endorse*', 'credib*', 'prestige',
    'limelight', 'spotlight', 'centre stage', 'center stage', 'showcas*', 'showman*', 'trade show*', 'roadshow*',
    'webinar*', 'press conference*', 'rhetoric*', 'orator*', 'oratory', 'silver tongue*', 'gift of the gab',
  ],
  // caring and supportive; attends to the wellbeing and growth of others
  Nurturer: [
    'caring', 'cares', 'cared', 'carer*', 'caregiv*', 'supportive', 'support', 'supports', 'supporting',
    'support* others', 'nurtur*', 'nurs*', 'mentor*', 'coach*', 'teach*', 'tutor*', 'encourag*', 'kindly', 'kindness',
    'kind hearted', 'big hearted', 'warm', 'warmth', 'warmly', 'warm hearted', 'compassion*', 'empath*', 'sympath*',
    'tender*', 'comforts', 'comforting', 'comforted', 'gives comfort', 'consol*', 'reassur*', 'look* after people',
    'looks after people', 'look* after them', 'look* out for', 'looks out for', 'check* in on', 'checks in on',
    'how people are', 'wellbeing', 'well being', 'welfare', 'help* people grow', 'help* them grow',
    'helps others grow', 'growth', 'develop* people', 'build* confidence', 'help*', 'counsel*', 'therap*',
    'social worker*', 'volunteer*', 'selfless*', 'generous*', 'giving', 'put* others first', 'others needs',
    'needs first', 'needs of others', 'foster*', 'childcare', 'newcomer*', 'struggl*', 'burnout', 'one to one*',
    'pastoral', 'grow', 'confidence', 'juniors', 'new starters', 'shy', 'bedside', 'grief', 'bereave*', 'comfort',
    'checks on', 'checks in with', 'how they are', 'how everyone is', 'takes time', 'loving', 'kind to',
    'looks after others', 'look* after everyone', 'take* care of', 'mother hen', 'shoulder to cry on',
    'listening ear', 'open door', 'out of their way', 'helps out', 'gives back', 'giving back', 'charity',
    'charitable', 'develops people', 'develop* others', 'praise*', 'empower*', 'uplift*', 'emotional support',
    'moral support', 'lend* a hand', 'thoughtful*', 'considerate', 'soft hearted', 'heart of gold', 'big heart',
  ],
  // seeks harmony; patient, accommodating, calms conflict
  Peacemaker: [
    'harmon*', 'peace*', 'calm*', 'serene', 'serenit*', 'tranquil*', 'composure', 'composed', 'unflappable',
    'unshak*', 'unruffled', 'level headed', 'even tempered', 'never raises', 'never loses', 'never shouts', 'patient',
    'patiently', 'patience', 'mediat*', 'arbitrat*', 'broker*', 'settlement*', 'reconcil*', 'defus*', 'de escalat*',
    'deescalat*', 'sooth*', 'smooth* over', 'smooths things over', 'smooth things over', 'common ground',
    'middle ground', 'meet* halfway', 'halfway', 'both sides', 'every side', 'all sides', 'each side', 'takes sides',
    'never takes sides', 'impartial*', 'neutral', 'even handed*', 'fair', 'fairness', 'consensus', 'agreeable',
    'compromis*', 'conflict*', 'tension*', 'tense', 'heated', 'friction', 'quarrel*', 'feud*', 'falling out',
    'fall* out', 'fell out', 'rift*', 'keep* the peace', 'cooperat*', 'collaborat*', 'team player*', 'easygoing',
    'easy going', 'easy to work with', 'laid back', 'low key', 'mild*', 'soft spoken', 'gentle*', 'accommodat*',
    'obliging', 'goes along', 'go along', 'going along', 'gives way', 'give* way', 'avoid* conflict',
    'avoid* confrontation', 'avoids confrontation', 'conflict averse', 'non confrontational', 'never makes waves',
    'lets others', 'let* others speak', 'listen*', 'hear* out', 'tact', 'tactful*', 'diplomatic', 'diplomacy',
    'polite*', 'courteous', 'pleasant*', 'mend* fences', 'win win', 'keep* everyone happy', 'happy medium',
    'give and take', 'in the middle', 'tolerant', 'forgiv*', 'non judgmental', 'no drama', 'low profile', 'referee*',
    'umpire*', 'both parties', 'each party', 'all parties', 'diffus*', 'cool head*', 'keep* cool', 'keeps their cool',
    'defers', 'deferential', 'humble', 'humility',
  ],
  // dependable and loyal; protects continuity, commitments and shared resources
  Steward: [
    'reliab*', 'dependab*', 'depended on', 'depends on', 'counted on', 'count on', 'rely on', 'relied on', 'loyal*',
    'faithful*', 'duty', 'duties', 'sense of responsibility', 'responsibly', 'steward*', 'guard*', 'protect*',
    'preserv*', 'conserv*', 'custodian*', 'caretak*', 'keeper*', 'maintain*', 'maintenance', 'upkeep',
    'in good repair', 'repair*', 'mend*', 'fixes', 'keeps the lights on', 'tradition*', 'customs', 'heritage',
    'legacy', 'generations', 'next generation', 'hand* on', 'hand* down', 'continuity', 'long serving',
    'years of service', 'trustworth*', 'trusted', 'trustee*', 'commitment*', 'promise*', 'keeps their word',
    'honour*', 'honor*', 'steady', 'steadfast', 'stable', 'stabil*', 'cauti*', 'prudent*', 'conservativ*',
    'risk averse', 'safely', 'safety', 'secure', 'securit*', 'savings', 'thrift*', 'frugal*', 'budget*', 'spending',
    'treasurer*', 'complian*', 'governance', 'always there', 'always around', 'never misses', 'shows up', 'backbone',
    'pillar', 'for decades', 'shortcuts', 'turns up', 'on call', 'keeps things running', 'solid', 'rock solid',
    'safe pair of hands', 'safe hands', 'steady hand', 'old school', 'old fashioned', 'always been done',
    'follow* through', 'never lets', 'been with the', 'veteran*', 'old hand', 'institutional knowledge', 'gatekeep*',
    'watchdog', 'careful with money', 'careful with resources', 'careful with budget*', 'penny*', 'waste', 'wasteful',
    'work ethic', 'integrity', 'principled', 'discreet', 'discretion', 'confidential*', 'covers for', 'never late',
    'duty of care',
  ],
  // builds order; designs processes and values consistency and structure
  Systematizer: [
    'system', 'systems', 'systematic*', 'systemis*', 'systemiz*', 'process*', 'procedur*', 'protocol*', 'structur*',
    'orderly', 'orderliness', 'order to chaos', 'bring* order', 'brings order', 'organis*', 'organiz*', 'plan',
    'plans', 'plann*', 'schedule', 'schedules', 'scheduling', 'scheduler*', 'timetabl*', 'timeline*', 'calendar*', 'agenda*',
    'rota', 'rotas', 'roster*', 'checklist*', 'lists', 'to do list*', 'template*', 'standardis*', 'standardiz*',
    'standard operat*', 'sop', 'sops', 'runbook*', 'playbook*', 'documented', 'written down', 'writes down',
    'write* down', 'step by step', 'steps', 'stages', 'phases', 'sequence*', 'workflow*', 'pipeline*', 'framework*',
    'method', 'methods', 'methodical*', 'methodolog*', 'logistic*', 'efficien*', 'streamlin*', 'optimis*', 'optimiz*',
    'automat*', 'repeatab*', 'consisten*', 'predictab*', 'routine*', 'rules', 'rulebook', 'regime*', 'tidy', 'neat*',
    'label*', 'categor*', 'catalogu*', 'classif*', 'filing', 'arrang*', 'coordinat*', 'project manag*', 'colour cod*',
    'color cod*', 'in advance', 'ahead of time', 'cadence', 'operations', 'everything in its place', 'milestone*',
    'tracker*', 'keeps track', 'keep* track', 'documentation', 'document* everything', 'manuals', 'handbook*',
    'backlog*', 'preparation', 'prepares', 'well prepared', 'contingenc*', 'fallback*', 'plan b', 'backup plan',
    'clockwork', 'run* smoothly', 'scalab*', 'reusable', 'reuse', 'paperwork', 'punctual*', 'by the book', 'red tape',
    'bureaucra*',
  ],
  // exacting and detail-minded; values accuracy, quality and standards
  Precisionist: [
    'detail*', 'accura*', 'inaccura*', 'exact', 'exactly', 'exacting', 'exactness', 'precis*', 'meticulous*',
    'perfection*', 'perfect*', 'imperfect*', 'flawless*', 'flaw*', 'error*', 'mistake*', 'typo*', 'slips', 'correct*',
    'incorrect*', 'inconsisten*', 'thorough*', 'rigor*', 'rigour*', 'fussy', 'pedant*', 'nitpick*', 'picky',
    'fastidious*', 'scrupulous*', 'painstaking*', 'careful*', 'quality', 'qa', 'standards', 'high standards',
    'audit*', 'double check*', 'checks every', 'check* every', 'cross check*', 'recheck*', 'check* twice',
    'checks twice', 'proofread*', 'verif*', 'inspect*', 'scrutin*', 'measur*', 'tolerance*', 'fine margins',
    'numbers', 'spreadsheet*', 'bookkeep*', 'accountant*', 'accounting', 'tester*', 'testing', 'bug*',
    'right first time', 'defect*', 'sloppy', 'sloppiness', 'catch* mistakes', 'spelling', 'grammar', 'punctuation',
    'wording', 'millimetre*', 'millimeter*', 'decimal*', 'pixel*', 'alignment', 'eye for', 'sharp eye', 'eagle eye*',
    'get* it right', 'gets it right', 'close enough', 'good enough', 'redo*', 'craftsman*', 'craftsmanship',
    'calibrat*', 'figures', 'tiny', 'smallest', 'spots', 'spotted', 'spotting', 'nuance*', 'fit and finish',
    'line by line', 'discrepanc*', 'fine print', 'small print', 'fine tun*', 'particular about', 'stickler*',
    'to the letter', 'letter perfect', 'spotless', 'immaculate*', 'pristine', 'clean code', 'unit test*',
    'test coverage', 'review* every', 'reviews every', 'review* twice', 'to spec', 'minutiae', 'granular*',
    'fine grained', 'to the penny', 'to the cent', 'to the last', 'down to the', 'slightest', 'minor',
  ],
  // analytical and curious; researches deeply before drawing conclusions
  Investigator: [
    'analy*', 'research*', 'curio*', 'investigat*', 'inquisitiv*', 'inquir*', 'enquir*', 'question*', 'asks',
    'ask* why', 'why', 'how and why', 'understand*', 'figur* out', 'find out', 'get* to the bottom', 'bottom of',
    'root cause*', 'dig*', 'delv*', 'deep dive*', 'deeply', 'in depth', 'explore', 'explores', 'exploring', 'data',
    'evidence', 'facts', 'proof', 'hypothes*', 'theor*', 'experiment', 'experiments', 'statistic*', 'math*', 'scien*',
    'phd', 'academic*', 'scholar*', 'clue*', 'mystery', 'mysteries', 'puzzl*', 'riddle*', 'detective*', 'forensic*',
    'diagnos*', 'logic*', 'reasoning', 'rational*', 'sceptic*', 'skeptic*', 'doubt*', 'pattern*', 'insight*',
    'conclusion*', 'compar*', 'alternatives', 'options', 'probe*', 'probing', 'observ*', 'test* theor*',
    'want* to know', 'study', 'studies', 'studying', 'studied', 'papers', 'sources', 'archive', 'archives',
    'read* up', 'reads up', 'knowledge', 'learning', 'underlying', 'the reason', 'wants to know', 'self taught',
    'add up', 'controlled test*', 'figur* it out', 'work* out why', 'fact check*', 'read* widely', 'well read',
    'bookworm', 'ponder*', 'reflect*', 'think* through', 'thinks things through', 'mull* over', 'mulls', 'deliberat*',
    'weigh* up', 'weighs the', 'before deciding', 'before concluding', 'before drawing', 'problem solv*',
    'troubleshoot*', 'debug*', 'tinker*', 'how things work', 'how it works', 'reverse engineer*', 'take* apart',
    'finds out', 'found out', 'finding out', 'look* into', 'looking into', 'sleuth*', 'fact finding', 'rabbit hole*',
    'intellectual*', 'intellect', 'quantitative', 'qualitative',
  ],
};

/**
 * Phrases that hold a lexicon word in an everyday sense that says nothing about behaviour
 * ("direct report", "some kind of", "for the first time"): their words are taken before
 * any term is looked for, and count for no profile.
 */
export const NEUTRAL_PHRASES: readonly string[] = [
  'direct report*', 'direct line', 'direct debit', 'direct message*', 'some kind', 'kind of', 'what kind',
  'first time', 'in order to', 'on file', 'fair enough', 'at risk', 'no idea', 'for the record', 'press release*',
  'lives alone', 'living alone', 'live alone',
];

