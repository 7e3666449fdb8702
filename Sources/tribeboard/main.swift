import TribeBoardCommands

TribeBoardCommand.mainForProgramName()
