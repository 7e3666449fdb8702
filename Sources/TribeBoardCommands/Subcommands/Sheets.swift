import ArgumentParser
import Foundation
import TribeBoardSheets
import TribeBoardStore
import TribeBoardSheets
import TribeBoardSupport

extension SheetLayout: ExpressibleByArgument {}
extension Paper: ExpressibleByArgument {}

/// `tribeboard sheets --out FILE.pdf`: printable invitations, cards or letters, from a manifest or the store.
package struct SheetsCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sheets",
        abstract: "Print invitations: a PDF with each family's name, code and QR code.",
        discussion: """
            Reads a provision manifest (--manifest) or the store: every family, or those named by \
            --external-id, the rows of --from-import, or a --created-from/--created-to range. The PDF is \
            written owner-only (mode 600: it holds the codes) and appears only once complete.
            Exit status: 0 written; 64 bad usage; 65 a template, logo or manifest that cannot be used (an \
            unknown placeholder, not UTF-8, a code not in the app's format), or no family matches; 66 the \
            manifest, template, logo or import file cannot be opened; 73 the PDF cannot be created there (a \
            symbolic link, someone else's or a read-only file, no such folder); 74 the store cannot be read \
            or the PDF cannot be written (disk full).
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions

    @Option(help: ArgumentHelp("Read the families from this manifest.csv instead of the store.", valueName: "file"))
    package var manifest: String?

    @Option(help: ArgumentHelp("The PDF to write.", valueName: "file.pdf"))
    package var out: String

    @Option(help: ArgumentHelp("cards (8 a page, with cut marks) or letters (one a page).", valueName: "layout"))
    package var layout: SheetLayout = .cards

    @Option(help: ArgumentHelp("a4 or letter.", valueName: "paper"))
    package var paper: Paper = .a4

    @Option(help: ArgumentHelp("The wording, organisation, logo and language (see Templates/sheets/).", valueName: "file"))
    package var template: String?

    @Option(name: .customLong("external-id"), help: ArgumentHelp("Only this family (repeatable).", valueName: "id"))
    package var externalIds: [String] = []

    @Option(help: ArgumentHelp("Only the families provisioned from this CSV file.", valueName: "file.csv"))
    var fromImport: String?

    @Option(help: ArgumentHelp("Only families created on or after this date (YYYY-MM-DD or ISO 8601, UTC).", valueName: "date"))
    var createdFrom: String?

    @Option(help: ArgumentHelp("Only families created on or before this date (a day includes all of it).", valueName: "date"))
    var createdTo: String?

    package init() {}

    package func validate() throws {
        if out.isEmpty { throw ValidationError("--out needs a file path.") }
        let selectors = [!externalIds.isEmpty, fromImport != nil, createdFrom != nil || createdTo != nil].filter { $0 }.count
        if selectors > 1 { throw ValidationError("pick one selection: --external-id, --from-import or --created-from/--created-to.") }
        if manifest != nil && selectors > 0 { throw ValidationError("--manifest prints the whole manifest; the selections apply to the store.") }
        if let bad = externalIds.first(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("--external-id needs a value, got \"\(bad)\".")
        }
        let from = try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") }
        let to = try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") }
        if let from, let to, from > to { throw ValidationError("--created-from is after --created-to.") }
    }


    /// Reading the store and drawing the PDF blocks: it runs on a thread of its own (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.sheets")
        let request = Self.Request(out: out, layout: layout, paper: paper, template: template)
        let report: SheetsReport
        if let manifest {
            report = try Self.render(request, fromManifest: manifest, storePath: global.store, context: context)
        } else {
            let selection: InvitationSelection
            if !externalIds.isEmpty {
                selection = .externalIds(Set(externalIds.map { $0.trimmingCharacters(in: .whitespaces) }))
            } else if let fromImport {
                selection = .importFile(path: fromImport)
            } else if createdFrom != nil || createdTo != nil {
                selection = .created(from: try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") },
                                     to: try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") })
            } else {
                selection = .all
            }
            report = try Self.render(request, selection: selection, storePath: global.store, context: context)
        }
        try context.emit(report, text: SheetsReportText.render)
    }

    struct Request {
        let out: String
        let layout: SheetLayout
        let paper: Paper
        let template: String?
    }

    static func render(_ request: Request, fromManifest manifest: String, storePath: String,
                       context: CommandContext) throws -> SheetsReport {
        do { return try make(request, fromManifest: manifest, storePath: storePath, context: context) } catch {
            throw context.fail(error, status: status(error))
        }
    }

    /// The PDF of a manifest, its failure returned rather than reported: `provision --sheets`
    /// puts it in its own report, beside what was provisioned.
    static func make(_ request: Request, fromManifest manifest: String, storePath: String,
                     context: CommandContext) throws(SheetError) -> SheetsReport {
        // The manifest does not carry the admin; the store does, when it is there.
        var store: TribeBoardStore?
        if FileManager.default.fileExists(atPath: storePath) {
            do {
                store = try TribeBoardStore.openReadOnly(at: storePath)
            } catch {
                // The cards can still be printed; what they lack is said, not hidden.
                context.logger.warning("cannot read the store: admins' names are left out", metadata: ["error": "\(error.localizedDescription)"])
            }
        } else {
            context.logger.info("no store at \(storePath): admins' names are left out")
        }
        return try make(request, source: .manifest) { renderer throws(InvitationReadError) in
            try ManifestInvitations.forEach(path: manifest) { invitation in
                let admin = try store?.adminName(familyId: invitation.familyId)
                try renderer.add(Invitation(familyId: invitation.familyId, familyName: invitation.familyName, code: invitation.code,
                                            adminName: admin, externalId: invitation.externalId))
            }
        }
    }

    static func render(_ request: Request, selection: InvitationSelection, storePath: String,
                       context: CommandContext) throws -> SheetsReport {
        try run(request, source: .store, context: context) { renderer throws(InvitationReadError) in
            let store = try openStore(storePath)
            try store.forEachInvitation(selection) { try renderer.add($0) }
        }
    }

    private static func openStore(_ path: String) throws(InvitationReadError) -> TribeBoardStore {
        do { return try TribeBoardStore.openReadOnly(at: path) } catch { throw .store(error) }
    }

    private static func run(_ request: Request, source: SheetsReport.Source, context: CommandContext,
                            _ feed: (SheetRenderer) throws(InvitationReadError) -> Void) throws -> SheetsReport {
        do { return try make(request, source: source, feed) } catch {
            throw context.fail(error, status: status(error))
        }
    }

    private static func make(_ request: Request, source: SheetsReport.Source,
                             _ feed: (SheetRenderer) throws(InvitationReadError) -> Void) throws(SheetError) -> SheetsReport {
        let template: SheetTemplate
        do throws(SheetTemplateError) {
            if let path = request.template { template = try SheetTemplate.load(path: path) } else { template = try SheetTemplate.builtIn() }
        } catch {
            throw SheetError.template(error)
        }
        let renderer = try SheetRenderer(outputPath: request.out, layout: request.layout, paper: request.paper, template: template)
        do { try feed(renderer) } catch { throw SheetError.input(error) }
        try renderer.finish()
        return SheetsReport(output: request.out, source: source, layout: request.layout, paper: request.paper,
                            template: request.template ?? "built-in", invitations: renderer.invitations, pages: renderer.pages)
    }

    static func status(_ error: SheetError) -> ExitStatus {
        switch error {
        case .template(.cannotOpen), .template(.logo(_, "no such file")): return .noInput
        case .template, .qr, .invalidCode, .nothingSelected: return .dataError
        case .input(.rendering(let inner as SheetError)): return status(inner)
        case .input(.store), .input(.rendering): return .ioError
        case .input(.manifestMissing), .input(.importFile(.cannotOpen)): return .noInput
        case .input(.manifest), .input(.importFile): return .dataError
        case .cannotCreate: return .cannotCreate
        case .write, .cairo: return .ioError
        }
    }

    /// A date from the command line as the store writes times (ISO 8601 UTC with milliseconds),
    /// so that text comparison is time comparison.
    static func storeTime(_ text: String, endOfDay: Bool, option: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        if trimmed.count == 10, let day = formatter.date(from: trimmed), (1970...9999).contains(Calendar(identifier: .gregorian).component(.year, from: day)) {
            return trimmed + (endOfDay ? "T23:59:59.999Z" : "T00:00:00.000Z")
        }
        formatter.formatOptions = [.withInternetDateTime]
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        guard let date = formatter.date(from: trimmed) ?? fractional.date(from: trimmed),
              (0...253_402_300_799).contains(date.timeIntervalSince1970) else {
            throw ValidationError("\(option) takes a date (2026-11-01) or a UTC time (2026-11-01T08:00:00Z), got \"\(text)\".")
        }
        return fractional.string(from: date)
    }
}
