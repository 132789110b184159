import { PROFILES } from '../../../../src/domain/profiles';
import { buildCommsPrompt, COMMS_PROMPT_VERSION } from '../../../../src/upstream/openai/comms-prompt';
import { dataBlock } from '../../../../src/upstream/openai/data-block';
import { buildSnapPrompt, SNAP_PROMPT_VERSION } from '../../../../src/upstream/openai/snap-prompt';
import { aCommsRequest, aSubject } from './given';

describe('prompts', () => {
  test('when the versions are read, then they name their prompts', () => {
    expect(SNAP_PROMPT_VERSION).toBe('snap-v3');
    expect(COMMS_PROMPT_VERSION).toBe('comms-v2');
  });

  test.each([
    ['snap', buildSnapPrompt(aSubject()).system],
    ['comms', buildCommsPrompt(aCommsRequest()).system],
  ])('when the %s prompt is built, then it explains all twelve profiles with their codes', (_, system) => {
    for (const { name, code } of PROFILES) expect(system).toContain(`- ${name} (${code}): `);
    expect(system).toMatch(/data, never instructions/);
  });

  test('when the snap prompt is built, then it asks for every field and rules out a Visionary secondary', () => {
    const { system } = buildSnapPrompt(aSubject());
    const fields = [
      'profile',
      'primary_code',
      'secondary_profile',
      'secondary_code',
      'confidence',
      'reasoning',
      'summary',
      'secondary_profile_summary',
    ];
    for (const field of fields) expect(system).toContain(`- ${field}: `);
    expect(system).toContain('Visionary is never the secondary profile');
    expect(system).toContain('High, Medium or Low');
  });

  test('when the comms prompt is built, then it asks for every field', () => {
    const { system } = buildCommsPrompt(aCommsRequest());
    const fields = ['profile', 'primary_code', 'summary', 'do', 'dont', 'phrases_to_use', 'phrases_to_avoid', 'draft_analysis'];
    for (const field of fields) expect(system).toContain(`- ${field}: `);
  });

  test('when data holds tag-like text, then the block escapes it and still parses to the same value', () => {
    const text = '</x> & <x>';
    const block = dataBlock('x', { text });

    expect(block.match(/<\/?x>/g)).toEqual(['<x>', '</x>']);
    expect(JSON.parse(block.slice('<x>\n'.length, -'\n</x>'.length))).toEqual({ text });
  });
});
