// Every error `kind` the commands print, and its exit status: one enum, so the compiler demands a
// status for a new kind and a mistyped kind does not compile. docs/errors.md's kinds table lists
// `allCases` in this order (`ErrorDocumentTests`, `ExitStatusSourceTests` compare them); each kind
// is produced by a sample of `ErrorKindCatalogue`. A command stops with the status of its error's
// kind, unless its `CommandExits` names an override for that kind.

/// The stable name of an error for scripts: `area.case`, named after the typed case (not the
/// message, which may be reworded).
enum ErrorKind: String, CaseIterable, Encodable, Sendable {
    case storeCannotOpen = "store.cannotOpen"
    case storeNotAStore = "store.notAStore"
    case storeNewerSchema = "store.newerSchema"
    case storeWriteFailed = "store.writeFailed"
    case storeReadFailed = "store.readFailed"
    case storeBusy = "store.busy"
    case storeUnreadableValue = "store.unreadableValue"
    case storeNotAFile = "store.notAFile"
    case lockHeld = "lock.held"
    case lockCannotOpen = "lock.cannotOpen"
    case csvCannotOpen = "csv.cannotOpen"
    case csvInvalidUTF8 = "csv.invalidUTF8"
    case csvUnterminatedQuote = "csv.unterminatedQuote"
    case csvEmpty = "csv.empty"
    case csvMissingColumn = "csv.missingColumn"
    case csvUtf16 = "csv.utf16"
    case csvUtf32 = "csv.utf32"
    case csvTooLarge = "csv.tooLarge"
    case csvDuplicateColumn = "csv.duplicateColumn"
    case csvUnreadable = "csv.unreadable"
    case csvMalformedHeader = "csv.malformedHeader"
    case csvWorkingCopy = "csv.workingCopy"
    case csvHeaderMapping = "csv.headerMapping"
    case fileFailed = "file.failed"
    case qrEncodingFailed = "qr.encodingFailed"
    case qrPngEncodingFailed = "qr.pngEncodingFailed"
    case qrInvalidScale = "qr.invalidScale"
    case cloudkitNetwork = "cloudkit.network"
    case cloudkitService = "cloudkit.service"
    case cloudkitUnexpectedResponse = "cloudkit.unexpectedResponse"
    case cloudkitOutOfTime = "cloudkit.outOfTime"
    case cloudkitSchemaMissingType = "cloudkit.schema.missingType"
    case cloudkitSchemaNotQueryable = "cloudkit.schema.notQueryable"
    case cloudkitSchemaNotDeployed = "cloudkit.schema.notDeployed"
    case cloudkitSchemaNotIndexable = "cloudkit.schema.notIndexable"
    case cloudkitSchemaMissingField = "cloudkit.schema.missingField"
    case cloudkitResponseTooLarge = "cloudkit.responseTooLarge"
    case configMissing = "config.missing"
    case configInvalid = "config.invalid"
    case configKeyFileUnreadable = "config.keyFileUnreadable"
    case configKeyFilePermissions = "config.keyFilePermissions"
    case configInvalidKey = "config.invalidKey"
    case configFile = "config.file"
    case remoteNotConfigured = "remote.notConfigured"
    case snapshotCannotOpen = "snapshot.cannotOpen"
    case snapshotReadFailed = "snapshot.readFailed"
    case snapshotParserUnavailable = "snapshot.parserUnavailable"
    case snapshotLineTooLong = "snapshot.lineTooLong"
    case snapshotTooLarge = "snapshot.tooLarge"
    case snapshotNotASnapshot = "snapshot.notASnapshot"
    case auditExportFailed = "audit.exportFailed"
    case auditRepairNotApplied = "audit.repairNotApplied"
    case auditRepairIncomplete = "audit.repairIncomplete"
    case auditScanStopped = "audit.scanStopped"
    case recodeNoSuchFamily = "recode.noSuchFamily"
    case recodeClaimNotConfirmed = "recode.claimNotConfirmed"
    case recodeChangedMeanwhile = "recode.changedMeanwhile"
    case recodeFilesNotInPlace = "recode.filesNotInPlace"
    case migrateSourceIsDestination = "migrate.sourceIsDestination"
    case migrateCopyNameUnavailable = "migrate.copyNameUnavailable"
    case migrateInterrupted = "migrate.interrupted"
    case caseNoSuchFamily = "case.noSuchFamily"
    case caseHasMembers = "case.hasMembers"
    case caseSameFamily = "case.sameFamily"
    case caseKeptFamilyLeaving = "case.keptFamilyLeaving"
    case caseNotInCloudKit = "case.notInCloudKit"
    case caseClaimUnavailable = "case.claimUnavailable"
    case caseListUnreadable = "case.listUnreadable"
    case caseListTooLarge = "case.listTooLarge"
    case codeNoFreeCode = "code.noFreeCode"
    case codeRandomSourceUnavailable = "code.randomSourceUnavailable"
    case provisionConfiguration = "provision.configuration"
    case resyncNotSetAside = "resync.notSetAside"
    case resyncNoSuchFamily = "resync.noSuchFamily"
    case manifestCannotOpen = "manifest.cannotOpen"
    case manifestUnreadable = "manifest.unreadable"
    case templateCannotOpen = "template.cannotOpen"
    case templateSyntax = "template.syntax"
    case templateUnknownPlaceholders = "template.unknownPlaceholders"
    case templateUnknownSetting = "template.unknownSetting"
    case templateLogo = "template.logo"
    case templateNotUTF8 = "template.notUTF8"
    case templateTooLarge = "template.tooLarge"
    case templateSeveral = "template.several"
    case sheetsCannotCreate = "sheets.cannotCreate"
    case sheetsCairo = "sheets.cairo"
    case sheetsInvalidCode = "sheets.invalidCode"
    case sheetsNothingSelected = "sheets.nothingSelected"
    case sheetsOutdatedManifest = "sheets.outdatedManifest"
    case sheetsUnmatched = "sheets.unmatched"
    case sheetsUnclaimed = "sheets.unclaimed"
    case sheetsTextDoesNotFit = "sheets.textDoesNotFit"
    case sheetsVerifyFailed = "sheets.verifyFailed"
    case sheetsVerifyUnreadable = "sheets.verifyUnreadable"
    case sheetsVerifyUnavailable = "sheets.verifyUnavailable"
    case usageUnknownOption = "usage.unknownOption"
    case usageMissingValue = "usage.missingValue"
    case usageMissingArgument = "usage.missingArgument"
    case usageInvalidValue = "usage.invalidValue"
    case usageUnknownSubcommand = "usage.unknownSubcommand"
    case usageUnexpectedArgument = "usage.unexpectedArgument"
    case usageValidation = "usage.validation"
    case usage
    case unexpected

    /// How this kind's status is decided.
    var rule: KindStatus {
        switch self {
        case .csvHeaderMapping, .recodeNoSuchFamily, .migrateSourceIsDestination,
             .caseNoSuchFamily, .caseHasMembers, .caseSameFamily, .caseKeptFamilyLeaving,
             .caseNotInCloudKit, .provisionConfiguration, .resyncNotSetAside, .resyncNoSuchFamily,
             .usageUnknownOption, .usageMissingValue, .usageMissingArgument, .usageInvalidValue,
             .usageUnknownSubcommand, .usageUnexpectedArgument, .usageValidation, .usage:
            return .always(.usage)
        case .csvInvalidUTF8, .csvUnterminatedQuote, .csvEmpty, .csvMissingColumn, .csvUtf16,
            .csvUtf32, .csvTooLarge, .csvDuplicateColumn, .csvUnreadable, .csvMalformedHeader,
            .qrEncodingFailed, .qrPngEncodingFailed, .qrInvalidScale, .snapshotLineTooLong,
            .snapshotTooLarge, .snapshotNotASnapshot, .caseListTooLarge, .manifestUnreadable,
            .templateSyntax, .templateUnknownPlaceholders, .templateUnknownSetting,
            .templateNotUTF8, .templateTooLarge, .templateSeveral, .sheetsInvalidCode,
            .sheetsNothingSelected, .sheetsOutdatedManifest, .sheetsUnmatched, .sheetsUnclaimed,
            .sheetsTextDoesNotFit, .sheetsVerifyFailed, .sheetsVerifyUnreadable:
            return .always(.dataError)
        case .csvCannotOpen, .snapshotCannotOpen, .caseListUnreadable, .manifestCannotOpen,
             .templateCannotOpen: return .always(.noInput)
        case .templateLogo: return .dataOrNoInput
        case .lockHeld: return .always(.lockHeld)
        case .sheetsCannotCreate: return .always(.cannotCreate)
        case .storeCannotOpen, .storeNotAStore, .storeNewerSchema, .storeWriteFailed,
            .storeReadFailed, .storeBusy, .storeUnreadableValue, .storeNotAFile, .lockCannotOpen,
            .csvWorkingCopy, .fileFailed, .snapshotReadFailed, .snapshotParserUnavailable,
            .auditExportFailed, .auditRepairNotApplied, .auditRepairIncomplete, .auditScanStopped,
            .recodeFilesNotInPlace, .migrateCopyNameUnavailable, .caseClaimUnavailable,
            .codeNoFreeCode, .codeRandomSourceUnavailable, .sheetsCairo, .sheetsVerifyUnavailable,
            .unexpected:
            return .always(.ioError)
        case .cloudkitNetwork, .cloudkitOutOfTime, .recodeClaimNotConfirmed,
             .recodeChangedMeanwhile: return .always(.remoteUnavailable)
        case .cloudkitService, .cloudkitUnexpectedResponse: return .byCategory
        case .cloudkitSchemaMissingType, .cloudkitSchemaNotQueryable, .cloudkitSchemaNotDeployed,
             .cloudkitSchemaNotIndexable, .cloudkitSchemaMissingField, .cloudkitResponseTooLarge,
             .configMissing, .configInvalid, .configKeyFileUnreadable, .configKeyFilePermissions,
             .configInvalidKey, .configFile, .remoteNotConfigured:
            return .always(.remoteConfiguration)
        case .migrateInterrupted: return .always(.interrupted)
        }
    }

    /// The area a kind belongs to (`store` for `store.busy`): what `CommandExits` selects by.
    var area: ErrorArea? {
        ErrorArea(rawValue: String(rawValue.prefix { $0 != "." }))
    }
}

/// The first part of every kind but `unexpected` (`ExitStatusSourceTests` checks both ways).
enum ErrorArea: String, CaseIterable, Sendable {
    case store, lock, csv, file, qr, cloudkit, config, remote, snapshot, audit, recode, migrate
    case familyCase = "case"
    case code, provision, resync, manifest, template, sheets, usage
}

/// How a kind's status is decided: most kinds have one; two of CloudKit's depend on its answer.
enum KindStatus: Equatable, Sendable {
    case always(ExitStatus)
    /// CloudKit's `category`: 78 when no retry changes it (configuration), 75 otherwise.
    case byCategory
    /// 65, or 66 when the file does not exist (the typed error says which:
    /// `ErrorDetail.missingFile`).
    case dataOrNoInput

    /// Every status a kind can end a run with, as docs/errors.md lists them.
    var possible: Set<ExitStatus> {
        switch self {
        case .always(let status): return [status]
        case .byCategory: return [.remoteUnavailable, .remoteConfiguration]
        case .dataOrNoInput: return [.dataError, .noInput]
        }
    }
}

extension ErrorDetail {
    /// The status the kind gives this error, whatever the command (see `CommandExits` for theirs).
    var kindStatus: ExitStatus {
        switch kind.rule {
        case .always(let status): return status
        case .byCategory:
            return category == "configuration" ? .remoteConfiguration : .remoteUnavailable
        case .dataOrNoInput: return missingFile ? .noInput : .dataError
        }
    }
}
