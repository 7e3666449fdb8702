import CCairoPango

/// Measuring: what a pango layout holds, read back (its lines within a height, the characters
/// no face has).
extension TextBox {
    /// pango's mark on a glyph no face of the list (nor any fontconfig falls back to) has: the
    /// glyph is then the character's code point, drawn as a box with its number.
    private static let unknownGlyph: UInt32 = 0x1000_0000

    /// The characters of `layouts` drawn as such boxes, each once, in order.
    static func missing(in layouts: some Sequence<OpaquePointer>) -> [Unicode.Scalar] {
        var found: [Unicode.Scalar] = []
        for layout in layouts where pango_layout_get_unknown_glyphs_count(layout) > 0 {
            guard let iterator = pango_layout_get_iter(layout) else { continue }
            defer { pango_layout_iter_free(iterator) }
            repeat {
                guard let run = pango_layout_iter_get_run_readonly(iterator),
                    let glyphs = run.pointee.glyphs
                else { continue }
                for index in 0..<Int(max(glyphs.pointee.num_glyphs, 0)) {
                    let glyph = glyphs.pointee.glyphs[index].glyph
                    guard glyph & unknownGlyph != 0,
                        let scalar = Unicode.Scalar(glyph & ~unknownGlyph), !found.contains(scalar)
                    else { continue }
                    found.append(scalar)
                }
            } while pango_layout_iter_next_run(iterator) != 0
        }
        return found
    }

    /// The bytes in `range` (UTF-8 split only where pango's lines start) as the layout's text.
    static func setText(_ layout: OpaquePointer, _ bytes: [UInt8], _ range: Range<Int>) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !range.isEmpty else {
                pango_layout_set_text(layout, "", 0); return
            }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                pango_layout_set_text(layout, $0 + range.lowerBound, Int32(clamping: range.count))
            }
        }
    }

    /// Where the first line that does not end within `limit` (layout units of points) starts, as
    /// a byte of the layout's text (nil when all do), and the height of the lines that do.
    static func lines(_ layout: OpaquePointer, within limit: Double) -> (
        rest: Int32?, height: Double
    ) {
        guard let iterator = pango_layout_get_iter(layout) else { return (0, 0) }
        defer { pango_layout_iter_free(iterator) }
        var bottom: Int32 = 0
        repeat {
            var top: Int32 = 0, end: Int32 = 0
            pango_layout_iter_get_line_yrange(iterator, &top, &end)
            if Double(end) / scale > limit + 0.01 {
                return (
                    pango_layout_iter_get_line_readonly(iterator).map { $0.pointee.start_index }
                        ?? 0, Double(bottom) / scale
                )
            }
            bottom = end
        } while pango_layout_iter_next_line(iterator) != 0
        return (nil, Double(bottom) / scale)
    }

    /// The number of lines that start before byte `end` of the layout's text.
    static func lineCount(_ layout: OpaquePointer, before end: Int32) -> Int {
        guard let iterator = pango_layout_get_iter(layout) else { return 0 }
        defer { pango_layout_iter_free(iterator) }
        var count = 0
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iterator),
                line.pointee.start_index < end
            else { break }
            count += 1
        } while pango_layout_iter_next_line(iterator) != 0
        return count
    }
}
