import TribeBoardCommands

await TribeBoardCommand.mainForProgramName()
