# SPDX-License-Identifier: GPL-2.0-or-later
"""Reading back a screenshot Chromium wrote (8-bit RGB or RGBA PNG) without a library beyond Python's own: the tests
that look at what a person sees (html_browser.sh, compare_matrix.sh) count its colours and ink."""
import struct
import zlib


def png_pixels(path, max_rows=None):
    """The RGB rows of a PNG (8-bit RGB or RGBA, as Chromium writes them), unfiltered: (width, rows of (r, g, b));
    only the first max_rows rows when given (the top of a page is quicker). (0, []) when it is not a PNG."""
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        return 0, []
    pos, idat = 8, b''
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, _, ctype = struct.unpack('>IIBB', body[:10])
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = {2: 3, 6: 4}[ctype]
    raw, stride, rows, prev, i = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h if max_rows is None else min(h, max_rows)):
        f, row = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = row[x - bpp] if x >= bpp else 0
            b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
            if f == 1:
                row[x] = (row[x] + a) & 255
            elif f == 2:
                row[x] = (row[x] + b) & 255
            elif f == 3:
                row[x] = (row[x] + (a + b) // 2) & 255
            elif f == 4:
                pp = a + b - c
                pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - c)
                row[x] = (row[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(row[x:x + 3]) for x in range(0, stride, bpp)])
        prev = row
    return w, rows
