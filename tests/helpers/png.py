# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading back a screenshot Chromium wrote, with Debian's Pillow (python3-pil; `make check` installs it): the tests
that look at what a person sees (html_browser.sh, compare_matrix.sh, culprit_html.py, matrix_fleet.py) count its
colours and ink. (A decoder in Python of our own took 2-4 s a page, 17 s of html_browser's 87.)"""
from PIL import Image


def png_pixels(path, max_rows=None):
    """The RGB rows of a PNG: (width, rows of (r, g, b)); only the first max_rows rows when given (the top of a page
    is quicker). (0, []) when it is not a PNG."""
    try:
        img = Image.open(path)
        if img.format != 'PNG':
            return 0, []
        img = img.convert('RGB')
    except (OSError, ValueError):
        return 0, []
    w, h = img.size
    if max_rows is not None and max_rows < h:
        img, h = img.crop((0, 0, w, max_rows)), max_rows
    px = list(img.getdata())
    return w, [px[y * w:(y + 1) * w] for y in range(h)]
