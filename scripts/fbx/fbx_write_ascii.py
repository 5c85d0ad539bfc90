"""Binary FBX -> ASCII FBX: the record tree written as text, the way the FBX SDK writes it
(Python 3 standard library only). The ASCII twin of a binary file must read exactly as the
binary one: tests/io/test_fbx_ascii.cpp compares the two scenes bit for bit.

    python3 scripts/fbx/fbx_write_ascii.py IN.fbx OUT.fbx

What the text holds for each binary type (and what rigscope's tokenizer makes of it again):
- Y C I L: integers (C: its letter, else T or F) -> 64-bit integers; F D: the shortest text that reads back as the
  same double (repr), float32 values widened exactly -> doubles.
- S R: quoted, '"' as &quot;, "Name\\0\\1Class" as "Class::Name"; R (raw bytes) written as a
  string of its bytes, which no reader of the scene uses.
- arrays: `*N { a: v,v,... }` (FBX 6: `v,v,...`); KeyAttrDataFloat (FBX 7.2 and later) as the integers whose bits
  are its floats, as the FBX SDK writes it (some of them are packed integers, not numbers).
"""
import struct
import sys
import zlib

_SCALAR = {'Y': ('<h', 2), 'C': ('<B', 1), 'I': ('<i', 4), 'F': ('<f', 4), 'D': ('<d', 8), 'L': ('<q', 8)}
_ARRAY = {'i': ('i', 4), 'l': ('q', 8), 'd': ('d', 8), 'f': ('f', 4), 'b': ('B', 1)}


def read_binary(data):
    """(version, [(name, [(code, value)], children)]) of a binary FBX file's bytes."""
    if not data.startswith(b'Kaydara FBX Binary  \x00'):
        raise ValueError('not a binary FBX file')
    version = struct.unpack_from('<I', data, 23)[0]
    wide = version >= 7500
    head = struct.Struct('<QQQB' if wide else '<IIIB')

    def record(off):
        end, nprops, plen, nlen = head.unpack_from(data, off)
        off += head.size
        if end == 0:
            return None, off
        name = data[off:off + nlen].decode('latin-1')
        off += nlen
        props = []
        for _ in range(nprops):
            code = chr(data[off])
            off += 1
            if code in _SCALAR:
                fmt, size = _SCALAR[code]
                props.append((code, struct.unpack_from(fmt, data, off)[0]))
                off += size
            elif code in 'SR':
                n = struct.unpack_from('<I', data, off)[0]
                props.append((code, data[off + 4:off + 4 + n]))
                off += 4 + n
            elif code in _ARRAY:
                count, encoding, n = struct.unpack_from('<III', data, off)
                raw = data[off + 12:off + 12 + n]
                if encoding == 1:
                    raw = zlib.decompress(raw)
                fmt, size = _ARRAY[code]
                props.append((code, list(struct.unpack('<%d%s' % (count, fmt), raw[:count * size]))))
                off += 12 + n
            else:
                raise ValueError('unknown property type %r in %s' % (code, name))
        children = []
        while off < end:
            child, off = record(off)
            if child is None:
                break
            children.append(child)
        return (name, props, children), end

    top, off = [], 27
    while off + head.size <= len(data):
        rec, off = record(off)
        if rec is None:
            break
        top.append(rec)
    return version, top


def _string(raw):
    if b'\x00\x01' in raw:
        name, cls = raw.split(b'\x00\x01', 1)
        raw = cls + b'::' + name
    return b'"' + raw.replace(b'"', b'&quot;') + b'"'


def _number(code, v):
    if code in 'FDfd':
        return repr(float(v))
    if code == 'C':  # a letter (FBX 6 key modes: L, C, U, s, n) stays that letter
        return chr(v) if chr(v).isalpha() and v < 128 else ('T' if v else 'F')
    return str(int(v))


def _array(name, code, values, version, indent):
    if name == 'KeyAttrDataFloat' and code == 'f' and version >= 7200:
        values = list(struct.unpack('<%di' % len(values), struct.pack('<%df' % len(values), *values)))
        code = 'i'
    text = ','.join(_number(code, v) for v in values)
    if version < 7000:  # FBX 6: an array is a plain list of values
        return text
    return '*%d {\n%s\ta: %s\n%s} ' % (len(values), indent, text, indent)


def _write(out, rec, version, depth):
    name, props, children = rec
    indent = '\t' * depth
    parts = []
    for code, v in props:
        if code in 'SR':
            parts.append(_string(v).decode('latin-1'))
        elif code in _ARRAY:
            parts.append(_array(name, code, v, version, indent))
        else:
            parts.append(_number(code, v))
    out.append('%s%s: %s' % (indent, name, ', '.join(parts)))
    if children or not props:
        out.append(' {\n')
        for c in children:
            _write(out, c, version, depth + 1)
        out.append('%s}\n' % indent)
    else:
        out.append('\n')


def to_ascii(data):
    """ASCII FBX text (bytes) of a binary FBX file's bytes."""
    version, top = read_binary(data)
    out = ['; FBX %d.%d.0 project file\n' % (version // 1000, version // 100 % 10),
           '; ----------------------------------------------------\n\n']
    for rec in top:
        _write(out, rec, version, 0)
    return ''.join(out).encode('latin-1')


def main(argv):
    if len(argv) != 3:
        sys.exit('usage: fbx_write_ascii.py IN.fbx OUT.fbx')
    with open(argv[1], 'rb') as f:
        text = to_ascii(f.read())
    with open(argv[2], 'wb') as f:
        f.write(text)


if __name__ == '__main__':
    main(sys.argv)
