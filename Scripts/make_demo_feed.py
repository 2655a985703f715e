#!/usr/bin/env python3
"""Usage: make_demo_feed.py PHOTO_FOLDER BASE_URL

Writes a Flickr public feed (JSONP form, as photos_public.gne?format=json sends it) for the
photos in a folder, served from the same origin. Titles carry Flickr's invalid \\' escape so the
demo exercises the quirk the real feed has."""
import json
import os
import sys
from datetime import datetime, timedelta, timezone

folder, base_url = sys.argv[1], sys.argv[2].rstrip("/")
names = sorted(n for n in os.listdir(folder) if n.lower().endswith((".jpg", ".jpeg", ".png")))
base = datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)
items = []
for number, name in enumerate(names):
    stem = os.path.splitext(name)[0]
    photo_id = str(31000000000 + number)
    published = base + timedelta(hours=number)
    items.append({
        "title": f"{stem} QUOTE_PLACEHOLDER",
        "link": f"https://www.flickr.com/photos/mate-backgrounds/{photo_id}/",
        "media": {"m": f"{base_url}/photos/{name}"},
        "date_taken": (published - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%S-08:00"),
        "description": f" <p>{stem}, from Debian's mate-backgrounds (GPL-2+).</p>",
        "published": published.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "author": 'nobody@flickr.com ("mate-backgrounds")',
        "author_id": "00000000@N00",
        "tags": f"mate {stem.lower()} nature",
    })
feed = {
    "title": "Uploads tagged nature",
    "link": "https://www.flickr.com/photos/tags/nature/",
    "description": "",
    "modified": base.strftime("%Y-%m-%dT%H:%M:%SZ"),
    "generator": "https://www.flickr.com/",
    "items": items,
}
text = json.dumps(feed, indent="\t", ensure_ascii=False)
# Flickr writes an apostrophe as \' (invalid JSON, but what the real feed sends).
text = text.replace("QUOTE_PLACEHOLDER", "isn\\'t it lovely")
sys.stdout.write("jsonFlickrFeed(" + text + ")")
