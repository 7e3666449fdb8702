import Foundation
import TribeBoardDomain
import TribeBoardQR
import TribeBoardSupport

package enum SheetError: Error, LocalizedError {
    case template(SheetTemplateError)
    case input(InvitationReadError)
    /// The PDF cannot be created where asked (symlink, missing folder, no permission).
    case cannotCreate(path: String, reason: String)
    case write(FileSystemError)
    case cairo(String)
    case qr(QRCodeError)
    /// A code that is not in the app's format (a manifest edited by hand, an old store row): the
    /// app would refuse it when typed or scanned, so it is not printed.
    case invalidCode(familyId: String, familyName: String, reason: String)
    case nothingSelected
    /// Text that does not fit even in the smallest type, without `--allow-cut`: nothing written.
    case textDoesNotFit(TextCuts, layout: SheetLayout, preview: String? = nil)
    /// A manifest whose codes are not the store's, the store not named to settle it: nothing
    /// written.
    case outdatedManifest(ManifestCodeCheck)
    /// `--family-id` or `--code` values no family has (codes counted, never shown).
    case unmatched(familyIds: [String], codes: Int)
    /// `--verify` needs a reader the machine does not have.
    case verifyUnavailable(tool: String, package: String)
    /// `--verify` could not read the PDF.
    case verify(reason: String)
    /// `--verify` found cards whose QR code and printed code do not agree with the families.
    case verifyFailed(SheetVerifier.Report)
    /// Families whose code CloudKit does not hold a claim of for them, while a remote is
    /// configured and `--include-unclaimed` was not given: whoever holds such a card could claim
    /// the code first. Nothing written.
    case unclaimed(familyIds: [String], count: Int, store: String)

    package var errorDescription: String? {
        switch self {
        case .template(let error): return error.localizedDescription
        case .input(let error): return error.localizedDescription
        case .cannotCreate(let path, let reason): return "cannot create \(path): \(reason)"
        case .write(let error): return error.localizedDescription
        case .cairo(let reason): return "cairo could not write the PDF: \(reason)"
        case .qr(let error): return error.localizedDescription
        case .invalidCode(let id, let name, let reason):
            return "the code of \(name) (\(id)) cannot be printed: \(reason); nothing was written (audit the store, or fix the manifest)"
        case .verifyUnavailable(let tool, let package):
            return "--verify reads the PDF with pdftoppm, pdftotext and zbarimg, independent of what wrote it; "
                + "\(tool) is not installed (apt-get install \(package)); nothing was checked"
        case .verify(let reason): return "--verify could not check the PDF: \(reason)"
        case .verifyFailed(let report):
            let named = report.failures.map { (failure) -> String in
                let card =
                    failure.familyName.map { "\($0) (\(failure.familyId ?? ""))" } ?? "a card"
                return "page \(failure.page), \(card): \(failure.problem.sentence)"
            }.joined(separator: "; ")
            let noQR = report.cards == 0 ? " (no QR code found)" : ""
            let more = report.failed > report.failures.count
                ? "; and \(report.failed - report.failures.count) more" : ""
            return "\(report.pdf) fails its check: \(report.failed) of \(report.cards) cards on "
                + "\(report.pages) pages\(noQR): \(named)\(more). Do not send it to print; "
                + "make it again with sheets --out"
        case .nothingSelected: return "no family matches: nothing to print, no PDF written"
        case .unmatched(let ids, let codes):
            let what = ids.isEmpty ? "\(codes) of the codes asked for (\(codes == 1 ? "it is" : "they are") not shown: codes are secrets)"
                : "--family-id \(ids.joined(separator: ", "))"
            return "no family matches \(what); nothing was written (the others are printed once every one asked for is found)"
        case .unclaimed(let ids, let count, let store):
            let shown =
                ids.prefix(5).joined(separator: ", ") + (count > 5 ? " and \(count - 5) more" : "")
            return
                "the code of \(count) famil\(count == 1 ? "y is" : "ies are") not claimed in CloudKit yet (\(shown)): whoever holds "
                + "such a card could claim the code first; nothing was written. Run `\(Advice.resync(store: store).command)` (it claims them), "
                + "or print them anyway with --include-unclaimed"
        case .outdatedManifest(let check):
            return "the manifest \(check.manifest) is older than the store \(check.store ?? ""): the code of \(check.outdated) "
                + "famil\(check.outdated == 1 ? "y" : "ies") has changed since (\(check.summary)), and the old code may now join another "
                + "family; nothing was written. Print the store's codes: name the store (--store \(check.store ?? "PATH")) or "
                + "print from the store without --manifest"
        case .textDoesNotFit(let cuts, let layout, let preview):
            let unit = layout == .cards ? "card" : "letter"
            let smallest = layout == .cards
                ? "\(Int(SheetRenderer.cardFloor)) pt, 4 cards a page"
                : "\(Int(SheetRenderer.letterFloor)) pt, titles \(Int(SheetRenderer.titleFloor)) pt"
            let template =
                "Shorten the template's text\(layout == .cards ? " (or use --layout letters)" : "")"
            let data =
                layout == .cards
                ? "the names are longer than the cards hold: use --layout letters for them"
                : "the names are longer than a letter holds"
            let advice = cuts.causes.sorted().map { $0 == .template ? template : data }.reversed()
                .joined(separator: "; ")
            let sentence = advice.prefix(1).uppercased() + advice.dropFirst()
            return "the text does not fit on \(cuts.invitations) \(unit)\(cuts.invitations == 1 ? "" : "s") even in the smallest type (\(smallest)): "
                + "\(cuts.summary); nothing was written\(preview.map { " but the preview \($0), where they are marked in red" } ?? ""). "
                + "\(sentence), see them marked with --preview FILE.png, or print it cut with --allow-cut"
        }
    }
}
