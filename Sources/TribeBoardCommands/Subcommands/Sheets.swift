import ArgumentParser
import Foundation
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardSheets
import TribeBoardStore
import TribeBoardSupport

extension SheetLayout: ExpressibleByArgument {}
extension Paper: ExpressibleByArgument {}
extension InvitationOrder: ExpressibleByArgument {}

/// `tribeboard sheets --out FILE.pdf`: printable invitations, cards or letters, from a manifest or the store.
package struct SheetsCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sheets",
        abstract: "Print invitations: a PDF with each family's name, code and QR code.",
        discussion: """
            Reads a provision manifest (--manifest) or the store: every family, or those named by \
            --external-id, the rows of --from-import, or a --created-from/--created-to range. The PDF is \
            written owner-only (mode 600: it holds the codes) and appears only once complete.
            Text is set smaller (down to 7 pt on cards, 9 pt on letters) and wrapped to fit, on taller cards \
            when it must; what still does not fit stops the run naming the families, unless --allow-cut. --preview draws the first page as a PNG.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions

    @Option(help: ArgumentHelp("Read the families from this manifest.csv instead of the store.", valueName: "file"))
    package var manifest: String?

    @Option(help: ArgumentHelp("The PDF to write.", valueName: "file.pdf"))
    package var out: String?

    @Option(help: ArgumentHelp("Also (or, without --out, only) draw the first page as a PNG, to check a template.", valueName: "file.png"))
    package var preview: String?

    @Option(help: ArgumentHelp("Check a finished PDF (each QR code decoded and compared with the code printed "
                                + "beside it and with the store's or --manifest's families); with --out naming "
                                + "the same file, once it is made.", valueName: "file.pdf"))
    var verify: String?

    @Flag(help: "Print text that does not fit even in the smallest type cut (\"…\"), counted in the report, instead of refusing.")
    package var allowCut = false

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

    @Option(name: .customLong("map"),
            help: ArgumentHelp("With --from-import: the --map given to provision for that file (repeatable).",
                               valueName: "header=column"))
    var map: [String] = []

    @Option(name: .customLong("family-id"), help: ArgumentHelp("Only this family, by record id (repeatable).", valueName: "id"))
    var familyIds: [String] = []

    @Option(name: .customLong("code"), help: ArgumentHelp("Only the family holding this code (repeatable).", valueName: "code"))
    var codes: [String] = []

    @Flag(help: "With a remote configured, also print families whose code is not claimed in CloudKit yet (refused otherwise).")
    var includeUnclaimed = false

    @Option(help: ArgumentHelp("The order of the store's families: created, name (case and accents aside) or external-id.", valueName: "order"))
    var sort: InvitationOrder = .created

    @Option(help: ArgumentHelp("Only families created on or after this date (YYYY-MM-DD or ISO 8601, UTC).", valueName: "date"))
    var createdFrom: String?

    @Option(help: ArgumentHelp("Only families created on or before this date (a day includes all of it).", valueName: "date"))
    var createdTo: String?

    package init() {}

    package func validate() throws {
        if let verify {
            if verify.isEmpty { throw ValidationError("--verify needs a PDF.") }
            if let out, out != verify { throw ValidationError("--verify checks the --out PDF once made: name the same file, or leave --out out.") }
            if preview != nil { throw ValidationError("--verify checks a PDF; --preview draws one page of a new one: run them apart.") }
        }
        if out == nil && preview == nil && verify == nil { throw ValidationError("--out FILE.pdf (or --preview FILE.png) is needed.") }
        if out?.isEmpty == true { throw ValidationError("--out needs a file path.") }
        if preview?.isEmpty == true { throw ValidationError("--preview needs a file path.") }
        if let out, out == preview { throw ValidationError("--out and --preview name the same file.") }
        let selectors = [!externalIds.isEmpty, fromImport != nil, createdFrom != nil || createdTo != nil, !familyIds.isEmpty, !codes.isEmpty]
            .filter { $0 }.count
        if selectors > 1 {
            throw ValidationError("pick one selection: --external-id, --family-id, --code, --from-import or --created-from/--created-to.")
        }
        if !map.isEmpty && fromImport == nil { throw ValidationError("--map reads the file of --from-import: give it too.") }
        do { _ = try HeaderMapping(arguments: map) } catch { throw ValidationError(error.localizedDescription) }
        if manifest != nil && selectors > 0 { throw ValidationError("--manifest prints the whole manifest; the selections apply to the store.") }
        if manifest != nil && sort != .created { throw ValidationError("--manifest prints in the manifest's order; --sort applies to the store.") }
        if let bad = (familyIds + codes).first(where: { FamilyQuery($0).isEmpty }) {
            throw ValidationError("--family-id and --code need a value, got \"\(bad)\".")
        }
        if let bad = externalIds.first(where: { FamilyQuery($0).isEmpty }) {
            throw ValidationError("--external-id needs a value, got \"\(bad)\".")
        }
        let from = try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") }
        let to = try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") }
        if let from, let to, from > to { throw ValidationError("--created-from is after --created-to.") }
    }

    /// Reading the store and drawing the PDF blocks: it runs on a thread of its own (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.sheets")
        if let verify, out == nil {
            try context.emit(try Self.check(verify, manifest: manifest, storePath: global.store, context: context),
                             text: SheetsReportText.verification)
            return
        }
        let request = SheetsRequest(out: out, layout: layout, paper: paper, template: template, preview: preview, allowCut: allowCut,
                                    storeNamed: Self.storeNamed, refuseUnclaimed: !includeUnclaimed && Self.remoteConfigured)
        let pipeline = Self.pipeline(request, storePath: global.store, context: context)
        let selection = try selection()
        var report: SheetsReport
        do throws(SheetError) {
            if let manifest {
                report = try pipeline.print(manifest: manifest)
            } else {
                report = try pipeline.print(selection, order: sort)
            }
        } catch {
            throw context.fail(error, Self.exits)
        }
        if let verify {
            report.verification = try Self.check(verify, manifest: manifest, storePath: global.store, context: context)
        }
        try context.emit(report, text: SheetsReportText.render)
    }

    /// The store's families the options select (checked in `validate()`; a manifest is printed whole).
    private func selection() throws -> InvitationSelection {
        // As every command naming a family takes them (`FamilyQuery`): trimmed, ids upper-cased,
        // an external id otherwise as typed, a code as the app reads it.
        if !externalIds.isEmpty { return .externalIds(Set(externalIds.map { FamilyQuery($0).typed })) }
        if !familyIds.isEmpty { return .familyIds(Set(familyIds.map { FamilyQuery($0).recordID })) }
        if !codes.isEmpty { return .codes(Set(codes.map { FamilyQuery($0).code })) }
        if let fromImport { return .importFile(path: fromImport, mapping: (try? HeaderMapping(arguments: map)) ?? HeaderMapping()) }
        guard createdFrom != nil || createdTo != nil else { return .all }
        return .created(from: try createdFrom.map { try Self.storeTime($0, endOfDay: false, option: "--created-from") },
                        to: try createdTo.map { try Self.storeTime($0, endOfDay: true, option: "--created-to") })
    }

    /// The pipeline with the command's loggers: what the summary repeats is not logged as well
    /// when it is on the terminal.
    static func pipeline(_ request: SheetsRequest, storePath: String, context: CommandContext) -> SheetsPipeline {
        SheetsPipeline(request, storePath: storePath, logger: context.logger, repeated: context.loggerRepeatedBySummary())
    }

    /// `--verify`: the PDF read back by poppler and zbar (`SheetsPipeline.verify`).
    static func check(_ pdf: String, manifest: String?, storePath: String, context: CommandContext) throws -> SheetVerifier.Report {
        do throws(SheetError) {
            return try SheetsPipeline.verify(pdf, manifest: manifest, storePath: storePath)
        } catch {
            throw context.fail(error, Self.exits)
        }
    }

    /// Whether the environment or its config file configures a remote (sheets takes no remote
    /// flags: it never talks to CloudKit; `provision --sheets` says it with its own client).
    static var remoteConfigured: Bool {
        (try? CloudKitConfiguration.resolve(.init(), environment: ProcessInfo.processInfo.environment))?.isConfigured == true
    }

    /// Whether the store was named rather than found at its default path: ArgumentParser gives
    /// the default and a given value alike.
    static var storeNamed: Bool {
        if ProcessInfo.processInfo.environment["TRIBEBOARD_STORE"] != nil { return true }
        let arguments = CommandLine.arguments.prefix { $0 != "--" }
        return arguments.contains { $0 == "--store" || $0.hasPrefix("--store=") }
    }

    /// A date from the command line, as the store compares its times (`Timestamp`). A bare day
    /// covers the whole of it.
    static func storeTime(_ text: String, endOfDay: Bool, option: String) throws -> Timestamp {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let day = trimmed.count == 10 ? Timestamp(text: trimmed + "T00:00:00Z") : nil
        // 1970 to the end of 9999: what four-digit years and the store's text sort can hold.
        guard let time = day ?? Timestamp(text: trimmed), Timestamp.supportedMilliseconds.contains(time.milliseconds) else {
            throw ValidationError("\(option) takes a date (2026-11-01) or a UTC time (2026-11-01T08:00:00Z), got \"\(text)\".")
        }
        // To a bare day's last millisecond (the store keeps milliseconds): inside the bound.
        return day != nil && endOfDay ? Timestamp(milliseconds: time.milliseconds + 86_399_999) : time
    }
}
