// pwsh.exe for the Windows test run under Wine: PowerShell 7's console host, the same entry point pwsh.exe has,
// with pwsh's command line (-NoProfile, -NonInteractive, -Command, -File ...). Wine gives a console only to a
// process with a terminal, so tests/Invoke-WindowsTests.sh starts it under `script`; the PowerShell processes the
// tests start from it inherit that console.
return Microsoft.PowerShell.ConsoleShell.Start(null, null, args);
