#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the CI examples of touchtape-regress(1) as shell scripts.

Usage: ci-examples.py MANPAGE OUTDIR GITLAB_SHARD GITHUB_SHARD RUNNER_TEMP

The .EX block after the annotation "example: skip GitLab CI YAML" is read
as YAML and its job's script lines become OUTDIR/gitlab.sh (one shell, as
GitLab's runner runs them, stopping at the first that fails); the block
after "example: skip GitHub Actions YAML" gives one OUTDIR/github-N.sh per
run step (each its own "sh -e", as a container job runs it), with the
expressions ${{ matrix.shard }} and ${{ runner.temp }} filled in as the
runner would. The shards are the matrix values of the job run; the GitLab
job's matrix variable is exported as its runner does.
"""
import os
import re
import sys

import yaml

ESCAPES = [(r'\-', '-'), (r'\e', '\\'), (r'\(aq', "'"), (r'\(dq', '"'), (r'\&', '')]


def blocks(path):
    """{annotation reason: YAML text} of each annotated .EX block."""
    out, reason, body = {}, None, None
    with open(path, encoding='utf-8') as f:
        for line in f.read().splitlines():
            m = re.match(r'^\.\\"\s*example:\s*skip\s+(.*)$', line)
            if m and body is None:
                reason = m.group(1)
            elif line.startswith('.EX'):
                body = []
            elif line.startswith('.EE') and body is not None:
                if reason:
                    out[reason] = '\n'.join(body) + '\n'
                body, reason = None, None
            elif body is not None:
                for a, b in ESCAPES:
                    line = line.replace(a, b)
                body.append(line)
    return out


def find(found, prefix):
    for reason, text in found.items():
        if reason.startswith(prefix):
            return yaml.safe_load(text)
    sys.exit(f'ci-examples.py: no example annotated "{prefix}"')


def gitlab(doc, outdir, shard):
    (job,) = [v for v in doc.values() if isinstance(v, dict) and 'script' in v]
    matrix = job['parallel']['matrix'][0]
    assert shard in matrix['SHARD'], f'{shard} is not in the GitLab matrix {matrix}'
    with open(os.path.join(outdir, 'gitlab.sh'), 'w', encoding='utf-8') as f:
        f.write('set -e\n')
        f.write(f'export SHARD="{shard}"\n')
        for line in job['script']:
            f.write(line + '\n')


def github(doc, outdir, shard, temp):
    (job,) = doc['jobs'].values()
    assert shard in job['strategy']['matrix']['shard'], 'the shard is not in the GitHub matrix'
    n = 0
    for step in job['steps']:
        if 'run' not in step:
            continue
        text = step['run'].replace('${{ matrix.shard }}', shard).replace('${{ runner.temp }}', temp)
        assert '${{' not in text, f'an expression the test does not fill in: {text}'
        n += 1
        with open(os.path.join(outdir, f'github-{n}.sh'), 'w', encoding='utf-8') as f:
            f.write(text if text.endswith('\n') else text + '\n')


def main():
    man, outdir, shard_gl, shard_gh, temp = sys.argv[1:6]
    found = blocks(man)
    gitlab(find(found, 'GitLab CI YAML'), outdir, shard_gl)
    github(find(found, 'GitHub Actions YAML'), outdir, shard_gh, temp)


if __name__ == '__main__':
    main()
