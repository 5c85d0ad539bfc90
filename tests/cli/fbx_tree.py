"""Binary FBX record tree, read and written back with every end offset recomputed, so that the
bad-input makers can change an array's length or insert records without breaking the container
around the one fault they make.

A record is [name (bytes), props, children, sentinel]: props a list of (type char, payload bytes)
with the payload exactly as stored after the type byte; sentinel True when the record ends with
the null record that closes a child list.
"""
import struct
import zlib

ARRAY_ELEMENT = {"f": 4, "d": 8, "l": 8, "i": 4, "b": 1}
SCALAR = {"Y": 2, "C": 1, "I": 4, "F": 4, "D": 8, "L": 8}


class Fbx:
    def __init__(self, data):
        self.head = data[:27]
        self.wide = struct.unpack_from("<I", data, 23)[0] >= 7500
        self.records, pos = self._read_list(data, 27, len(data))
        self.footer = data[pos:]

    def _fmt(self):
        return ("<QQQ", 24) if self.wide else ("<III", 12)

    def _read_list(self, data, pos, limit):
        fmt, size = self._fmt()
        out = []
        while pos < limit:
            end, nprops, plen = struct.unpack_from(fmt, data, pos)
            if end == 0:
                return out, pos + size + 1
            nlen = data[pos + size]
            name = data[pos + size + 1:pos + size + 1 + nlen]
            q = pos + size + 1 + nlen
            props_end = q + plen
            props = []
            for _ in range(nprops):
                kind = chr(data[q])
                q += 1
                if kind in SCALAR:
                    n = SCALAR[kind]
                elif kind in ARRAY_ELEMENT:
                    n = 12 + struct.unpack_from("<I", data, q + 8)[0]
                else:
                    n = 4 + struct.unpack_from("<I", data, q)[0]
                props.append((kind, data[q:q + n]))
                q += n
            children = []
            if props_end < end:
                children, _ = self._read_list(data, props_end, end)
            out.append([name, props, children, props_end < end])
            pos = end
        return out, pos

    def _write_list(self, records, out, base):
        fmt, size = self._fmt()
        for rec in records:
            if isinstance(rec, Nested):
                out += rec.bytes(base + len(out), fmt, size)
                continue
            name, props, children, sentinel = rec
            body = b"".join(k.encode() + p for k, p in props)
            start = base + len(out)
            inner = bytearray()
            self._write_list(children, inner, start + size + 1 + len(name) + len(body))
            if sentinel or children:
                inner += bytes(size + 1)
            end = start + size + 1 + len(name) + len(body) + len(inner)
            out += struct.pack(fmt, end, len(props), len(body)) + bytes([len(name)]) + name + body + inner

    def bytes(self):
        out = bytearray()
        self._write_list(self.records, out, 27)
        fmt, size = self._fmt()
        return bytes(self.head) + bytes(out) + bytes(size + 1) + bytes(self.footer)

    def find(self, name, records=None):
        """Every record of that name, depth first."""
        for r in self.records if records is None else records:
            if r[0] == name:
                yield r
            yield from self.find(name, r[2])


def array_parts(payload):
    count, encoding, length = struct.unpack_from("<III", payload, 0)
    return count, encoding, payload[12:12 + length]


def array_payload(count, encoding, data):
    return struct.pack("<III", count, encoding, len(data)) + data


def array_values(kind, payload):
    count, encoding, data = array_parts(payload)
    raw = zlib.decompress(data) if encoding == 1 else data
    return list(struct.unpack("<%d%s" % (count, {"f": "f", "d": "d", "l": "q", "i": "i", "b": "b"}[kind]), raw))


def pack_array(kind, values, compress=True):
    raw = struct.pack("<%d%s" % (len(values), {"f": "f", "d": "d", "l": "q", "i": "i", "b": "b"}[kind]), *values)
    return array_payload(len(values), 1 if compress else 0, zlib.compress(raw) if compress else raw)


class Nested:
    """One property-less record nested `depth` deep (each level holds the next), written without
    recursion so that depths of 100,000 can be made."""

    def __init__(self, name, depth):
        self.name, self.depth = name, depth

    def bytes(self, start, fmt, size):
        head = size + 1 + len(self.name)
        inner_end = start + self.depth * head
        out = bytearray()
        for k in range(self.depth):
            end = inner_end + (self.depth - 1 - k) * (size + 1)
            out += struct.pack(fmt, end, 0, 0) + bytes([len(self.name)]) + self.name
        out += bytes(size + 1) * (self.depth - 1)
        return bytes(out)


def nested(name, depth):
    return Nested(name, depth)
