import ArgumentParser

/// `tribeboard`: every subcommand under one executable.
public struct TribeBoardCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tribeboard",
        abstract: "Operator tools for TribeBoard's families: provision, resync and doctor (audit to come).",
        subcommands: [ProvisionCommand.self, ResyncCommand.self, DoctorCommand.self])

    public init() {}
}
