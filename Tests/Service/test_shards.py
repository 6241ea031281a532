"""Placeholders for a batch larger than one machine: three shards run at once, then merged, equal
one run's manifest (and previews)."""

import filecmp
import json
import os
import subprocess
import sys
import tempfile

from PIL import Image

from harness import BLURKIT, FIXTURE


def main():
    work = tempfile.mkdtemp(prefix="blurkit-shards-")
    images = os.path.join(work, "images")
    os.makedirs(os.path.join(images, "more"))
    photo = Image.open(FIXTURE).convert("RGB")
    for i in range(12):
        folder = images if i % 2 else os.path.join(images, "more")
        photo.rotate(i * 30).save(os.path.join(folder, f"p{i}.png" if i % 3 else f"p{i}.jpg"))
    # Inputs named relative to the work folder: the partition hashes the path as given, so the same
    # names give the same split on every run (and every host).
    one = os.path.join(work, "one")
    subprocess.run([BLURKIT, "placeholder", "images", "--out", one, "--quiet"], check=True, cwd=work)
    sharded = os.path.join(work, "sharded")
    shards = [subprocess.Popen([BLURKIT, "placeholder", "images", "--out", sharded, "--shard", f"{k}/3", "--quiet"], cwd=work)
              for k in (1, 2, 3)]
    assert all(p.wait() == 0 for p in shards)
    counts = [len(json.load(open(os.path.join(sharded, f"manifest.shard-{k}-of-3.json")))["images"]) for k in (1, 2, 3)]
    assert sum(counts) == 12 and all(c > 0 for c in counts), counts
    subprocess.run([BLURKIT, "placeholder", "images", "--out", sharded, "--merge", "--quiet"], check=True, cwd=work)
    assert open(os.path.join(one, "manifest.json")).read() == open(os.path.join(sharded, "manifest.json")).read()
    previews = sorted(n for n in os.listdir(one) if n.endswith(".png"))
    assert previews and all(filecmp.cmp(os.path.join(one, n), os.path.join(sharded, n), shallow=False) for n in previews)
    print(f"shards: {counts} images in 3 shards, merged = one run")


if __name__ == "__main__":
    sys.exit(main())
