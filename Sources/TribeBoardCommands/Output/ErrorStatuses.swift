// The exit status of every error `kind`: one table, the same as the status column of the kinds
// table in docs/errors.md (`ErrorDocumentTests` compares them). A command stops with the status of
// its error's kind, unless its `CommandExits` names an override for that kind.

/// How a kind's status is decided: most kinds have one; two of CloudKit's depend on its answer.
enum KindStatus: Equatable, Sendable {
    case always(ExitStatus)
    /// CloudKit's `category`: 78 when no retry changes it (configuration), 75 otherwise.
    case byCategory
    /// 65, or 66 when the file does not exist (the typed error says which: `ErrorDetail.missingFile`).
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

enum ErrorKinds {
    /// kind → status, in the order of docs/errors.md.
    static let statuses: KeyValuePairs<String, KindStatus> = [
        "store.cannotOpen": .always(.ioError), "store.notAStore": .always(.ioError), "store.newerSchema": .always(.ioError),
        "store.writeFailed": .always(.ioError), "store.readFailed": .always(.ioError), "store.busy": .always(.ioError),
        "store.unreadableValue": .always(.ioError), "store.notAFile": .always(.ioError),
        ErrorDetail.lockHeldKind: .always(.lockHeld), "lock.cannotOpen": .always(.ioError),
        "csv.cannotOpen": .always(.noInput), "csv.invalidUTF8": .always(.dataError), "csv.unterminatedQuote": .always(.dataError),
        "csv.empty": .always(.dataError), "csv.missingColumn": .always(.dataError), "csv.utf16": .always(.dataError),
        "csv.utf32": .always(.dataError), "csv.tooLarge": .always(.dataError), "csv.duplicateColumn": .always(.dataError),
        "csv.unreadable": .always(.dataError), "csv.malformedHeader": .always(.dataError), "csv.headerMapping": .always(.usage),
        "csv.workingCopy": .always(.ioError),
        "file.failed": .always(.ioError),
        "qr.encodingFailed": .always(.dataError), "qr.pngEncodingFailed": .always(.dataError), "qr.invalidScale": .always(.dataError),
        "cloudkit.network": .always(.remoteUnavailable), "cloudkit.service": .byCategory, "cloudkit.unexpectedResponse": .byCategory,
        "cloudkit.outOfTime": .always(.remoteUnavailable),
        "cloudkit.schema.missingType": .always(.remoteConfiguration), "cloudkit.schema.notQueryable": .always(.remoteConfiguration),
        "cloudkit.schema.notDeployed": .always(.remoteConfiguration), "cloudkit.schema.notIndexable": .always(.remoteConfiguration),
        "cloudkit.schema.missingField": .always(.remoteConfiguration), "cloudkit.responseTooLarge": .always(.remoteConfiguration),
        "config.missing": .always(.remoteConfiguration), "config.invalid": .always(.remoteConfiguration),
        "config.keyFileUnreadable": .always(.remoteConfiguration), "config.keyFilePermissions": .always(.remoteConfiguration),
        "config.invalidKey": .always(.remoteConfiguration), "config.file": .always(.remoteConfiguration),
        "remote.notConfigured": .always(.remoteConfiguration),
        "snapshot.cannotOpen": .always(.noInput), "snapshot.readFailed": .always(.ioError), "snapshot.parserUnavailable": .always(.ioError),
        "snapshot.lineTooLong": .always(.dataError), "snapshot.tooLarge": .always(.dataError), "snapshot.notASnapshot": .always(.dataError),
        "audit.exportFailed": .always(.ioError), "audit.repairNotApplied": .always(.ioError), "audit.repairIncomplete": .always(.ioError),
        "audit.scanStopped": .always(.ioError),
        "migrate.sourceIsDestination": .always(.usage), "migrate.copyNameUnavailable": .always(.ioError),
        "migrate.interrupted": .always(.interrupted),
        "recode.noSuchFamily": .always(.usage), "recode.claimNotConfirmed": .always(.remoteUnavailable),
        "recode.changedMeanwhile": .always(.remoteUnavailable), "recode.filesNotInPlace": .always(.ioError),
        "case.noSuchFamily": .always(.usage), "case.hasMembers": .always(.usage), "case.sameFamily": .always(.usage),
        "case.keptFamilyLeaving": .always(.usage), "case.notInCloudKit": .always(.usage), "case.claimUnavailable": .always(.ioError),
        "case.listUnreadable": .always(.noInput), "case.listTooLarge": .always(.dataError),
        "code.noFreeCode": .always(.ioError), "code.randomSourceUnavailable": .always(.ioError),
        "provision.configuration": .always(.usage),
        "resync.notSetAside": .always(.usage), "resync.noSuchFamily": .always(.usage),
        "manifest.cannotOpen": .always(.noInput), "manifest.unreadable": .always(.dataError),
        "template.cannotOpen": .always(.noInput), "template.syntax": .always(.dataError), "template.unknownPlaceholders": .always(.dataError),
        "template.unknownSetting": .always(.dataError), "template.logo": .dataOrNoInput, "template.notUTF8": .always(.dataError),
        "template.tooLarge": .always(.dataError), "template.several": .always(.dataError),
        "sheets.cannotCreate": .always(.cannotCreate), "sheets.cairo": .always(.ioError), "sheets.invalidCode": .always(.dataError),
        "sheets.nothingSelected": .always(.dataError), "sheets.outdatedManifest": .always(.dataError), "sheets.unmatched": .always(.dataError),
        "sheets.textDoesNotFit": .always(.dataError), "sheets.verifyFailed": .always(.dataError),
        "sheets.verifyUnreadable": .always(.dataError), "sheets.verifyUnavailable": .always(.ioError),
        "sheets.unclaimed": .always(.dataError),
        "usage.unknownOption": .always(.usage), "usage.missingValue": .always(.usage), "usage.missingArgument": .always(.usage),
        "usage.invalidValue": .always(.usage), "usage.unknownSubcommand": .always(.usage), "usage.unexpectedArgument": .always(.usage),
        "usage.validation": .always(.usage), UsageError.plainKind: .always(.usage),
        // An error no mapping knows stopped the work: a fault, never "try later" nor success.
        ErrorDetail.unexpectedKind: .always(.ioError),
    ]

    /// The rule of `kind`; nil for a kind missing from the table (a test fails on it).
    static func rule(_ kind: String) -> KindStatus? {
        statuses.first { $0.key == kind }?.value
    }
}

extension ErrorDetail {
    /// The status the table gives this error, whatever the command (see `CommandExits` for theirs).
    var kindStatus: ExitStatus {
        switch ErrorKinds.rule(kind) {
        case .always(let status)?: return status
        case .byCategory?: return category == "configuration" ? .remoteConfiguration : .remoteUnavailable
        case .dataOrNoInput?: return missingFile ? .noInput : .dataError
        case nil: return .ioError
        }
    }
}
