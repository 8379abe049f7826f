#pragma once

#include <QtGlobal>
#include <string_view>

namespace lmct {

/**
 * Hex digits of chunk hashes and other byte strings, without building the hex text: LMCache
 * writes a chunk hash as bytes or as a hex string (`ObjectKey.chunk_hash`), and filters and
 * key look-ups compare a typed hex prefix against either.
 *
 * Digits are read in either case and written in lower case (as Python's `bytes.hex()`).
 *
 * Thread-safety: stateless; every function is reentrant.
 */
class Hex {
public:
    /** The value of hex digit `c` (0..15), or -1 when `c` is no hex digit. */
    static constexpr int nibble(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** The lower-case digit of `v` (0..15). */
    static constexpr char digit(int v) { return "0123456789abcdef"[v & 0x0f]; }

    /** The `i`-th hex digit's value of `bytes` (two a byte, high one first); i < 2 * size. */
    static constexpr int nibbleAt(std::string_view bytes, size_t i) {
        const uchar b = uchar(bytes[i / 2]);
        return (i % 2 == 0) ? (b >> 4) : (b & 0x0f);
    }

    /**
     * Whether the hex digits of `value` start with `prefix` (digits in either case). `value`
     * is hex text when `isHexText` (compared digit by digit), raw bytes otherwise. A prefix
     * longer than the value's digits never matches; characters that are no hex digits compare
     * equal to one another.
     */
    static bool hasPrefix(std::string_view value, bool isHexText, std::string_view prefix) {
        if (isHexText) {
            if (prefix.size() > value.size()) {
                return false;
            }
            for (size_t i = 0; i < prefix.size(); ++i) {
                if (nibble(value[i]) != nibble(prefix[i])) {
                    return false;
                }
            }
            return true;
        }
        if (prefix.size() > value.size() * 2) {
            return false;
        }
        for (size_t i = 0; i < prefix.size(); ++i) {
            if (nibbleAt(value, i) != nibble(prefix[i])) {
                return false;
            }
        }
        return true;
    }
};

}  // namespace lmct
