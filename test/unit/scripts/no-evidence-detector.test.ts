/**
 * The embedded predictor's no-evidence detector (src/upstream/embedded/snap-no-evidence.json)
 * is what its generator gives from the development half of the evaluation set: a change of
 * that half without `make snap-no-evidence`, or a hand edit of the file, fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEvalSet } from '../../../scripts/eval/eval-set';
import { learnNoEvidence, snapNoEvidenceFile } from '../../../scripts/lexicon/learn-no-evidence';
import { noEvidenceDetectorOf, readsLikeNoEvidence } from '../../../src/upstream/embedded/snap-no-evidence';

const committed = JSON.parse(readFileSync(join(__dirname, '../../../src/upstream/embedded/snap-no-evidence.json'), 'utf8')) as unknown;

describe('the learned no-evidence detector', () => {
  test('when the generator runs on the development half, then it gives exactly the committed file', () => {
    expect(committed).toEqual(snapNoEvidenceFile());
  });

  test('when it is learned, then only the development half is read: a held-out note or description changes nothing', () => {
    const set = loadEvalSet();
    const heldOutRewritten = {
      ...set,
      people: set.people.map((person) => (person.half === 'held-out' ? { ...person, descriptions: ['Room booked.', 'Invoice sent.', 'Agenda attached.'] as const } : person)),
      noEvidence: set.noEvidence.map((note) => (note.half === 'held-out' ? { ...note, notes: 'Checks every detail and leads the team.' } : note)),
    };
    const file = snapNoEvidenceFile();

    expect([file.notes, file.descriptions]).toEqual([
      set.noEvidence.filter((note) => note.half === 'dev').length,
      set.people.filter((person) => person.half === 'dev').length * 3,
    ]);
    expect(snapNoEvidenceFile(heldOutRewritten)).toEqual(file);
  });

  test('when stems are learned from a few texts, then a stem of the notes weighs for them, a stem of the descriptions against, a stem of both about nothing, and a stem of one text is left out', () => {
    const descriptions = ['checks every figure', 'checks the plan twice', 'leads the meeting', 'leads the team'];
    const notes = ['room booked', 'room 4 booked for the meeting', 'invoice sent'];

    const { ratios } = learnNoEvidence(descriptions, notes, { smoothing: 0.5, minTexts: 2, threshold: 0 });

    expect(ratios.room).toBeGreaterThan(1);
    expect(ratios.check).toBeLessThan(-1);
    expect(Math.abs(ratios.meet ?? Infinity)).toBeLessThan(0.5);
    expect(ratios).not.toHaveProperty('invoic');
  });

  test('when a text is read, then it reads like a no-evidence note only when the mean ratio of the stems the detector knows is above its threshold', () => {
    const detector = noEvidenceDetectorOf({ threshold: 0, ratios: { room: 2, book: 1, check: -4 } });

    expect(readsLikeNoEvidence(['room', 'book', 'unknown'], detector)).toBe(true);
    expect(readsLikeNoEvidence(['room', 'check'], detector)).toBe(false);
    expect(readsLikeNoEvidence(['room', 'book', 'check'], detector)).toBe(false);
    expect(readsLikeNoEvidence(['unknown'], detector)).toBe(false);
  });
});
