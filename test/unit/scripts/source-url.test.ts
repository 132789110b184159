/**
 * The image's org.opencontainers.image.source label (scripts/image/build.sh) is the git
 * remote without credentials: scripts/image/source-url.sh drops a URL's userinfo.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '..', '..', '..', 'scripts', 'image', 'source-url.sh');
const sourceOf = (url: string) => execFileSync(SCRIPT, [url], { encoding: 'utf8' }).trim();

describe('the image source label', () => {
  test.each([
    ['https://oauth2:ghp_token123@github.com/acme/pps.git', 'https://github.com/acme/pps.git'],
    ['https://ci-bot@gitlab.example.com/acme/pps', 'https://gitlab.example.com/acme/pps'],
    ['ssh://git:secret@git.example.com:2222/acme/pps.git', 'ssh://git.example.com:2222/acme/pps.git'],
    ['git@github.com:acme/pps.git', 'https://github.com/acme/pps.git'],
    ['https://github.com/acme/pps.git', 'https://github.com/acme/pps.git'],
  ])('when the remote is %s, then the label is %s', (remote, label) => {
    expect(sourceOf(remote)).toBe(label);
  });

  test('the build passes the remote through it', () => {
    const build = readFileSync(join(__dirname, '..', '..', '..', 'scripts', 'image', 'build.sh'), 'utf8');
    expect(build).toMatch(/source_url="\$\(scripts\/image\/source-url\.sh /);
  });
});
