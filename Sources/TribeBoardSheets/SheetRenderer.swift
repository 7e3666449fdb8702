import CCairoPango
import Foundation
import TribeBoardDomain

/// Faces chosen for what they must show. Family names: Noto Sans, with fontconfig falling back to
/// the Noto face of each script (Arabic, Hebrew, Devanagari, Thai) and to Noto Sans CJK. Codes: DejaVu Sans Mono Bold, whose 0 is slashed and whose 1, I, 8, B, 5, S, 2 and Z
/// all differ, so a code typed from paper is typed right even with the app's older codes.
enum SheetFonts {
    /// Listed rather than left to fontconfig, which would take DejaVu Sans for Arabic and Hebrew.
    static let text = "Noto Sans, Noto Sans Arabic, Noto Sans Hebrew, Noto Sans Devanagari, Noto Sans Thai, Noto Sans CJK JP"
    static let code = "DejaVu Sans Mono Bold"
}

/// Draws invitations one by one onto pages of a PDF, emitting each page as soon as it is full.
package final class SheetRenderer {
    package let layout: SheetLayout
    package let paper: Paper
    private let template: SheetTemplate
    private let geometry: SheetGeometry
    private let outputPath: String
    private let logo: Logo?
    private var output: PDFOutput?
    private var boxes: Boxes?
    private var slot = 0
    package private(set) var invitations = 0
    package private(set) var pages = 0

    private struct Boxes {
        let heading, name, label, code, small, body: TextBox
    }

    package init(outputPath: String, layout: SheetLayout, paper: Paper, template: SheetTemplate) throws(SheetError) {
        self.outputPath = outputPath
        self.layout = layout
        self.paper = paper
        self.template = template
        geometry = SheetGeometry(paper: paper, layout: layout)
        do throws(SheetTemplateError) {
            logo = try template.logoPath.map { (path) throws(SheetTemplateError) in try Logo(path: path) }
        } catch {
            throw .template(error)
        }
    }

    /// The PDF is created with the first invitation: no family, no file.
    package func add(_ invitation: Invitation) throws(SheetError) {
        try Self.validate(invitation)
        let output: PDFOutput
        if let started = self.output { output = started } else { output = try start() }
        let boxes = self.boxes.map { $0 } ?? makeBoxes(output.context)
        if layout == .cards && slot == 0 { drawCutMarks(output.context) }
        let frame = layout == .cards ? geometry.card(slot) : geometry.letterBody
        // Text is fitted by its logical size, but marks stacked on one letter (a name of
        // combining marks passes the app's 50-character rule) ink far above and below it: the
        // clip keeps every card's drawing inside its own card, clear of the line it is cut on.
        let inset = layout == .cards ? 4.0 : 0
        cairo_save(output.context)
        cairo_rectangle(output.context, frame.x + inset, frame.y + inset, frame.width - 2 * inset, frame.height - 2 * inset)
        cairo_clip(output.context)
        if layout == .cards {
            drawCard(invitation, in: frame, output.context, boxes)
        } else {
            drawLetter(invitation, output.context, boxes)
        }
        cairo_restore(output.context)
        try QRDrawing.draw(invitation.code, in: output.context, x: qrFrame.x, y: qrFrame.y, size: qrFrame.size)
        invitations += 1
        slot += 1
        if slot == geometry.perPage { try endPage() }
    }

    /// Ends the last page and names the file. Before this, nothing is at the output path.
    package func finish() throws(SheetError) {
        guard let output else { throw .nothingSelected }
        if slot > 0 { try endPage() }
        boxes = nil
        try output.commit()
    }

    private var qrFrame = (x: 0.0, y: 0.0, size: 0.0)

    /// Exactly the app's wire format: a code that needs trimming or upper-casing to pass is one
    /// the app's scanner would read differently from what the store holds.
    static func validate(_ invitation: Invitation) throws(SheetError) {
        let reason: String
        do {
            if try FamilyCode(validating: invitation.code).value == invitation.code { return }
            reason = "it is not written as the app writes it (upper case, no spaces)"
        } catch {
            reason = error.localizedDescription
        }
        throw .invalidCode(familyId: invitation.familyId, familyName: invitation.familyName, reason: reason)
    }

    private func start() throws(SheetError) -> PDFOutput {
        let output = try PDFOutput(path: outputPath, paper: paper)
        self.output = output
        return output
    }

    private func endPage() throws(SheetError) {
        try output?.showPage()
        pages += 1
        slot = 0
    }

    private func makeBoxes(_ context: OpaquePointer) -> Boxes {
        let language = template.language
        let made: Boxes
        if layout == .cards {
            made = Boxes(heading: TextBox(context: context, font: "\(SheetFonts.text) 8", language: language),
                         name: TextBox(context: context, font: "\(SheetFonts.text) Bold 17"),
                         label: TextBox(context: context, font: "\(SheetFonts.text) 9", language: language),
                         code: TextBox(context: context, font: "\(SheetFonts.code) 24"),
                         small: TextBox(context: context, font: "\(SheetFonts.text) 9.5"),
                         body: TextBox(context: context, font: "\(SheetFonts.text) 7.5", language: language))
        } else {
            made = Boxes(heading: TextBox(context: context, font: "\(SheetFonts.text) Bold 22", language: language),
                         name: TextBox(context: context, font: "\(SheetFonts.text) Bold 34"),
                         label: TextBox(context: context, font: "\(SheetFonts.text) 13", language: language),
                         code: TextBox(context: context, font: "\(SheetFonts.code) 48"),
                         small: TextBox(context: context, font: "\(SheetFonts.text) 14"),
                         body: TextBox(context: context, font: "\(SheetFonts.text) 13", language: language))
        }
        boxes = made
        return made
    }

    private func values(_ invitation: Invitation) -> [TemplateField: String] {
        [.familyName: invitation.familyName, .adminName: invitation.adminName ?? "", .code: invitation.code,
         .externalId: invitation.externalId ?? "", .organisation: template.organisation]
    }

    private func adminLine(_ invitation: Invitation) -> String? {
        invitation.adminName.flatMap { $0.isEmpty ? nil : "\(template.adminLabel): \($0)" }
    }

    private func drawCutMarks(_ context: OpaquePointer) {
        cairo_set_source_rgb(context, 0.4, 0.4, 0.4)
        cairo_set_line_width(context, 0.5)
        for mark in geometry.cutMarks {
            cairo_move_to(context, mark.x0, mark.y0)
            cairo_line_to(context, mark.x1, mark.y1)
        }
        cairo_stroke(context)
    }

    private func drawCard(_ invitation: Invitation, in card: PageRect, _ context: OpaquePointer, _ boxes: Boxes) {
        let pad = 10.0, inner = card.width - 2 * pad
        var y = card.y + pad
        if !template.organisation.isEmpty {
            y += boxes.heading.draw(template.organisation, x: card.x + pad, y: y, width: inner, alignment: .center, gray: 0.35)
        }
        // 0.4 of 17 points still reads: a 50-character name (the app's longest) fits whole.
        y += boxes.name.drawFitted(invitation.familyName, x: card.x + pad, y: y, width: inner, minimumScale: 0.4) + 4
        let qrSize = min(card.y + card.height - pad - y, card.width * 0.42)
        qrFrame = (card.x + pad, y, qrSize)
        let column = card.x + pad + qrSize + 6
        let columnWidth = card.x + card.width - pad - column
        y += boxes.label.draw(template.codeLabel, x: column, y: y + 4, width: columnWidth, gray: 0.35) + 4
        y += boxes.code.drawFitted(invitation.code, x: column, y: y, width: columnWidth, minimumScale: 0.3, alignment: .natural) + 2
        if let admin = adminLine(invitation) {
            // Shrunk before it is cut: an admin's name of the app's 50 characters reads whole.
            y += boxes.small.drawFitted(admin, x: column, y: y, width: columnWidth, minimumScale: 0.5, alignment: .natural) + 3
        }
        let room = card.y + card.height - pad - y
        if room > 8 {
            boxes.body.draw(template.body.filled(values(invitation)), x: column, y: y, width: columnWidth, maxHeight: room)
        }
    }

    private func drawLetter(_ invitation: Invitation, _ context: OpaquePointer, _ boxes: Boxes) {
        let page = geometry.letterBody
        var y = page.y
        var textX = page.x
        if let logo {
            logo.draw(in: context, x: page.x, y: page.y + (Logo.box.height - logo.height) / 2)
            textX += logo.width + 12
        }
        if !template.organisation.isEmpty {
            boxes.label.draw(template.organisation, x: textX, y: page.y + 14, width: page.x + page.width - textX, gray: 0.35)
        }
        y += 64
        let fields = values(invitation)
        y += boxes.heading.draw(template.title.filled(fields), x: page.x, y: y, width: page.width, maxHeight: 52) + 12
        y += boxes.name.drawFitted(invitation.familyName, x: page.x, y: y, width: page.width) + 12
        let qrSize = 200.0
        qrFrame = (page.x + (page.width - qrSize) / 2, y, qrSize)
        y += qrSize + 8
        y += boxes.label.draw(template.codeLabel, x: page.x, y: y, width: page.width, alignment: .center, gray: 0.35)
        y += boxes.code.drawFitted(invitation.code, x: page.x, y: y, width: page.width, minimumScale: 0.3) + 6
        if let admin = adminLine(invitation) {
            y += boxes.small.draw(admin, x: page.x, y: y, width: page.width, alignment: .center) + 6
        }
        y += 12
        boxes.body.draw(template.body.filled(fields), x: page.x, y: y, width: page.width, maxHeight: page.y + page.height - y)
    }
}
