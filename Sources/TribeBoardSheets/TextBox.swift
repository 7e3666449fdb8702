import CCairoPango

/// One reusable pango layout in one font: shaping (harfbuzz), bidi and script fallback through
/// fontconfig are pango's; this only places the result.
final class TextBox {
    private static let scale = 1024.0  // PANGO_SCALE
    private let layout: OpaquePointer
    private let context: OpaquePointer

    enum Alignment { case natural, center }

    /// `font` is a pango font description ("Noto Sans Bold 14"); `language` a BCP 47 tag or nil.
    init(context: OpaquePointer, font: String, language: String? = nil) {
        self.context = context
        layout = pango_cairo_create_layout(context)
        // Sizes in PostScript points: pango-cairo's default is 96 dpi, the PDF's unit is 1/72 inch.
        pango_cairo_context_set_resolution(pango_layout_get_context(layout), 72)
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string(font)
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        if let language {
            pango_context_set_language(pango_layout_get_context(layout), pango_language_from_string(language))
            pango_layout_context_changed(layout)
        }
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }

    /// Draws `text` on one line (centred in `width` by default), shrunk (down to `minimumScale`) rather than
    /// cut when it is too long: a family's name should be read whole. Returns the height used.
    @discardableResult
    func drawFitted(_ text: String, x: Double, y: Double, width: Double, minimumScale: Double = 0.6,
                    alignment: Alignment = .center) -> Double {
        pango_layout_set_width(layout, -1)
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        pango_layout_set_text(layout, text, -1)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        var natural = Double(logical.width) / Self.scale
        let scale = natural > width ? max(width / natural, minimumScale) : 1
        if natural * scale > width {
            pango_layout_set_width(layout, Int32(width / scale * Self.scale))
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            pango_layout_get_extents(layout, nil, &logical)
            natural = Double(logical.width) / Self.scale
        }
        cairo_save(context)
        cairo_set_source_rgb(context, 0, 0, 0)
        cairo_translate(context, alignment == .center ? x + (width - natural * scale) / 2 : x, y)
        cairo_scale(context, scale, scale)
        cairo_move_to(context, 0, 0)
        pango_cairo_show_layout(context, layout)
        cairo_restore(context)
        return Double(logical.height) / Self.scale * scale
    }

    /// Draws `text` with its top left at (x, y), wrapped to `width`; at most `maxHeight` tall, the
    /// rest ellipsized (single line when `maxHeight` is nil). Returns the height used.
    @discardableResult
    func draw(_ text: String, x: Double, y: Double, width: Double, maxHeight: Double? = nil,
              alignment: Alignment = .natural, gray: Double = 0) -> Double {
        pango_layout_set_width(layout, Int32(width * Self.scale))
        if let maxHeight {
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            pango_layout_set_height(layout, Int32(maxHeight * Self.scale))
        } else {
            pango_layout_set_height(layout, -1)
        }
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        pango_layout_set_alignment(layout, alignment == .center ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
        pango_layout_set_text(layout, text, -1)
        cairo_set_source_rgb(context, gray, gray, gray)
        cairo_move_to(context, x, y)
        pango_cairo_show_layout(context, layout)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        return Double(logical.height) / Self.scale
    }
}
