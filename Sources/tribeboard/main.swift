import TribeBoardCommands

TribeBoardCommand.main()
