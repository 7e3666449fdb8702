import CCairoPango

/// One font's pango layouts: shaping (harfbuzz), bidi and script fallback through fontconfig are
/// pango's; this fits the result into the space it is given and says when it could not.
///
/// Layouts are made on a measuring context (a PDF surface with no output, so the metrics are the
/// PDF's) and shown on the targets given per call: the PDF's page, the preview's image, both, or
/// none when a run only measures.
final class TextBox {
    static let scale = 1024.0  // PANGO_SCALE
    /// One layout per region a block flows through (the column beside the QR, then below it), so
    /// that a block that fits at full size is drawn from the layouts that measured it.
    private var layouts: [OpaquePointer] = []
    /// How many of each layout's lines a block shows (nil: all): a region that passes the rest of
    /// its text on keeps the whole text laid out and shows only the lines that fit, rather than
    /// laying out again the part that fits.
    private var shown: [Int?] = []
    private let measuring: OpaquePointer
    private var font: String
    private var language: String?

    enum Alignment { case natural, center }

    /// How a text came out: the scale it was set at, whether something was cut, the height used,
    /// and the characters shown that no installed face has (drawn as a box with their number).
    struct Fit {
        let scale: Double
        let cut: Bool
        let height: Double
        var missing: [Unicode.Scalar] = []
    }

    /// The last text laid out and how it came out: a card is measured (for its page's shape),
    /// then drawn with the same boxes, and a text asked for again in the same space (another
    /// place on the page) is drawn from the layouts that measured it, not laid out again. Only
    /// sizes are compared: where a text goes does not change how it breaks.
    private enum Memo {
        case line(text: String, width: Double, minimumScale: Double, natural: Double, fit: Fit)  // width in thousandths
        case block(
            text: String, first: [Double]?, regions: [Double], minimumScale: Double,
            alignment: Alignment,
            inFirst: Bool, count: Int, fit: Fit)
    }
    private var memo: Memo?
    /// How many times a text was handed to pango: what the memo saves is counted here.
    private(set) var layoutsMade = 0

    /// Widths and heights, the part of regions a layout depends on, to a thousandth of a point:
    /// the same card's sizes computed at another place on the page differ in their last bits.
    private static func sizes(_ regions: [PageRect]) -> [Double] {
        regions.flatMap { [($0.width * 1000).rounded(), ($0.height * 1000).rounded()] }
    }

    /// `font` is a pango font description ("Noto Sans Bold 14"); `language` a BCP 47 tag or nil.
    init(measuring: OpaquePointer, font: String, language: String? = nil) {
        self.measuring = measuring
        self.font = font
        self.language = language
        points = Self.points(of: font)
    }

    private static func points(of font: String) -> Double {
        let description = pango_font_description_from_string(font)
        defer { pango_font_description_free(description) }
        return max(Double(pango_font_description_get_size(description)) / scale, 1)
    }

    /// The font's size in points: a block shrinks from it in steps of half a point.
    var points: Double
    /// The step the last block that had to shrink was set at: the next family's wording differs
    /// only in its placeholders, so the search starts there (two or three layouts, not eight).
    var lastStep = 1

    deinit { for layout in layouts { g_object_unref(UnsafeMutableRawPointer(layout)) } }

    /// Sets the face list and language of what follows (a family's name in its own script's
    /// CJK face): the layouts take them when they change (they are not made anew).
    func use(font: String, language: String?) {
        guard font != self.font || language != self.language else { return }
        self.font = font
        self.language = language
        points = Self.points(of: font)
        lastStep = 1
        memo = nil
        for layout in layouts { configure(layout) }
    }

    private func configure(_ layout: OpaquePointer) {
        let description = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        let context = pango_layout_get_context(layout)
        pango_context_set_language(
            context, language.map { pango_language_from_string($0) } ?? pango_language_get_default()
        )
        pango_layout_context_changed(layout)
    }

    private func layout(_ index: Int) -> OpaquePointer {
        while layouts.count <= index {
            guard let layout = pango_cairo_create_layout(measuring) else { return layouts[0] }
            // Sizes in PostScript points: pango-cairo's default is 96 dpi, the PDF's unit is 1/72
            // inch.
            pango_cairo_context_set_resolution(pango_layout_get_context(layout), 72)
            // Glyph positions rounded to whole points at the layout's size, then scaled down,
            // space letters wider than words at small sizes: kept exact, as a typesetter sets them.
            pango_context_set_round_glyph_positions(pango_layout_get_context(layout), 0)
            configure(layout)
            layouts.append(layout)
            shown.append(nil)
        }
        return layouts[index]
    }

    /// Draws `text` on one line, shrunk (down to `minimumScale`) rather than cut when it is too
    /// long; past that it ends in "…" and the fit says it was cut.
    @discardableResult
    func line(
        _ text: String, x: Double, y: Double, width: Double, minimumScale: Double,
        alignment: Alignment = .center,
        gray: Double = 0, red: Bool = false, on targets: [OpaquePointer]
    ) -> Fit {
        let layout = layout(0)
        if case .line(text, (width * 1000).rounded(), minimumScale, let natural, let fit) = memo {
            let left = alignment == .center ? x + (width - natural * fit.scale) / 2 : x
            for target in targets {
                show(layout, on: target, x: left, y: y, scale: fit.scale, gray: gray, red: red)
            }
            return fit
        }
        pango_layout_set_width(layout, -1)
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        pango_layout_set_text(layout, text, -1)
        layoutsMade += 1
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        var natural = Double(logical.width) / Self.scale
        let scale = natural > width ? max(width / natural, minimumScale) : 1
        let cut = natural * scale > width + 0.01
        if cut {
            pango_layout_set_width(layout, Int32(width / scale * Self.scale))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_get_extents(layout, nil, &logical)
            natural = Double(logical.width) / Self.scale
        }
        let left = alignment == .center ? x + (width - natural * scale) / 2 : x
        for target in targets {
            show(layout, on: target, x: left, y: y, scale: scale, gray: gray, red: red)
        }
        let fit = Fit(
            scale: scale, cut: cut, height: Double(logical.height) / Self.scale * scale,
            missing: Self.missing(in: [layout]))
        memo = .line(
            text: text, width: (width * 1000).rounded(), minimumScale: minimumScale,
            natural: natural, fit: fit)
        return fit
    }

    /// Draws `text` wrapped into `regions` in turn (what does not fit in one continues in the
    /// next), at the largest scale down to `minimumScale` at which all of it fits. When even that
    /// is too big, what fits is drawn ending in "…" and the fit says it was cut. The height is the
    /// part of the last region used. `first`, when given, is tried before at full size: the
    /// simpler shape a short text keeps.
    @discardableResult
    func block(
        _ text: String, first: [PageRect]? = nil, regions: [PageRect], minimumScale: Double,
        alignment: Alignment = .natural,
        gray: Double = 0, on targets: [OpaquePointer]
    ) -> Fit {
        guard !text.isEmpty else { return Fit(scale: 1, cut: false, height: 0) }
        let firstSizes = first.map(Self.sizes), regionSizes = Self.sizes(regions)
        if case .block(
            text, firstSizes, regionSizes, minimumScale, alignment, let inFirst, let count, let fit) =
            memo
        {
            draw(
                count, of: inFirst ? first ?? [] : regions, scale: fit.scale, gray: gray,
                on: targets)
            return fit
        }
        guard
            let laid = layOut(
                text, first: first, regions: regions, minimumScale: minimumScale,
                alignment: alignment,
                measuring: targets.isEmpty)
        else {
            memo = nil
            return Fit(scale: minimumScale, cut: true, height: 0)
        }
        let fit = Fit(
            scale: laid.scale, cut: laid.cut, height: laid.height,
            missing: Self.missing(in: layouts.prefix(laid.count)))
        memo = .block(
            text: text, first: firstSizes, regions: regionSizes, minimumScale: minimumScale,
            alignment: alignment,
            inFirst: laid.inFirst, count: laid.count, fit: fit)
        draw(
            laid.count, of: laid.inFirst ? first ?? [] : regions, scale: fit.scale, gray: gray,
            on: targets)
        return fit
    }

    /// The first `count` of `regions` large enough to hold text (the ones a block flows through).
    private func draw(
        _ count: Int, of regions: [PageRect], scale: Double, gray: Double,
        on targets: [OpaquePointer]
    ) {
        draw(
            Array(regions.filter { $0.width > 1 && $0.height > 1 }.prefix(count)), scale: scale,
            gray: gray, on: targets)
    }

    /// Lays `bytes` out region by region at `scale`, each region's layout left holding only the
    /// lines that fit in it: the regions used, the height used in the last, and whether the text
    /// ended within them. `cutting` ends the last region's text in "…" when it does not.
    func flow(_ bytes: [UInt8], _ regions: [PageRect], scale: Double, alignment: Alignment,
                      cutting: Bool) -> (count: Int, height: Double, fits: Bool) {
        var start = 0
        for (index, region) in regions.enumerated() {
            let limit = region.height / scale
            let layout = prepare(index, width: region.width / scale, alignment: alignment)
            Self.setText(layout, bytes, start..<bytes.count)
            layoutsMade += 1
            let (rest, height) = Self.lines(layout, within: limit)
            shown[index] = nil
            guard let rest else { return (index + 1, height * scale, true) }
            var end = start + Int(rest)
            if index == regions.count - 1 {
                guard cutting else { return (index + 1, height * scale, false) }
                // Only whole paragraphs that fit, and "…" ellipsized into the last of them: pango
                // shows a line of every paragraph past the height, so they must not be there.
                while end > start && [0x0A, 0x0D, 0x20].contains(bytes[end - 1]) { end -= 1 }
                Self.setText(
                    layout, Array(bytes[start..<end]) + Array(" …".utf8), 0..<(end - start + 4))
                pango_layout_set_height(layout, Int32(limit * Self.scale))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
                return (index + 1, height * scale, false)
            }
            shown[index] = Self.lineCount(layout, before: rest)
            start = end
            while start < bytes.count && (bytes[start] == 0x0A || bytes[start] == 0x0D) {
                start += 1
            }
            if start >= bytes.count { return (index + 1, height * scale, true) }
        }
        return (regions.count, 0, false)
    }

    private func prepare(_ index: Int, width: Double, alignment: Alignment) -> OpaquePointer {
        let layout = layout(index)
        pango_layout_set_width(layout, Int32(width * Self.scale))
        pango_layout_set_height(layout, -1)
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        pango_layout_set_alignment(
            layout, alignment == .center ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        return layout
    }

    private func draw(
        _ regions: [PageRect], scale: Double, gray: Double, on targets: [OpaquePointer]
    ) {
        for target in targets {
            for (index, region) in regions.enumerated() {
                if let count = shown[index] {
                    showLines(
                        layout(index), count, on: target, x: region.x, y: region.y, scale: scale,
                        gray: gray)
                } else {
                    show(
                        layout(index), on: target, x: region.x, y: region.y, scale: scale,
                        gray: gray)
                }
            }
        }
    }

    /// The first `count` lines of a layout, each at its baseline: what `show` draws, cut short.
    private func showLines(
        _ layout: OpaquePointer, _ count: Int, on target: OpaquePointer, x: Double, y: Double,
        scale: Double, gray: Double
    ) {
        guard count > 0, let iterator = pango_layout_get_iter(layout) else { return }
        defer { pango_layout_iter_free(iterator) }
        cairo_save(target)
        cairo_set_source_rgb(target, gray, gray, gray)
        cairo_translate(target, x, y)
        cairo_scale(target, scale, scale)
        var drawn = 0
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iterator) else { break }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iterator, nil, &logical)
            cairo_move_to(
                target, Double(logical.x) / Self.scale,
                Double(pango_layout_iter_get_baseline(iterator)) / Self.scale)
            pango_cairo_show_layout_line(target, line)
            drawn += 1
        } while drawn < count && pango_layout_iter_next_line(iterator) != 0
        cairo_restore(target)
    }

    private func show(
        _ layout: OpaquePointer, on target: OpaquePointer, x: Double, y: Double, scale: Double,
        gray: Double,
        red: Bool = false
    ) {
        cairo_save(target)
        cairo_set_source_rgb(target, red ? 0.85 : gray, gray, gray)
        cairo_translate(target, x, y)
        cairo_scale(target, scale, scale)
        cairo_move_to(target, 0, 0)
        pango_cairo_show_layout(target, layout)
        cairo_restore(target)
    }
}
