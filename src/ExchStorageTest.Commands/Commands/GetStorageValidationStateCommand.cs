using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Get-StorageValidationState: the desired-state check of the ExchStorageValidation DSC class resource (the
    /// root psm1). Hidden: the manifest does not export it, so only the root module sees it. The engine judges
    /// ("validation", docs/protocol.md) with the code behind <c>exchstoragetest-engine dsc get|test</c>, so the
    /// class and the DSC v3 resource cannot disagree. Reads results files only; a missing profile is a reason
    /// (ProfileNotFound), not an error, because DSC asks for the state of whatever is configured.
    /// </summary>
    [Cmdlet(VerbsCommon.Get, "StorageValidationState", HelpUri = HelpLinks.Dsc)]
    [OutputType(typeof(StorageValidationState))]
    public sealed class GetStorageValidationStateCommand : StorageTestCmdlet
    {
        [Parameter(Mandatory = true)]
        [ValidateNotNullOrEmpty]
        public string ProfilePath { get; set; } = "";

        /// <summary>Empty: &lt;first database path&gt;/Results, as the engine saves results by default.</summary>
        [Parameter]
        [AllowNull]
        [AllowEmptyString]
        public string? OutputPath { get; set; }

        [Parameter]
        [ValidateSet(nameof(Contract.TestType.Performance), nameof(Contract.TestType.Stress), nameof(Contract.TestType.DatabaseBackup), nameof(Contract.TestType.SoftRecovery),
            nameof(Contract.TestType.Throughput))]
        public string TestType { get; set; } = RunDefaults.TestType.ToString();

        [Parameter]
        public double MaxResultAgeHours { get; set; } = RunDefaults.MaxResultAgeHours;

        protected override void EndProcessing() => Guard(() =>
        {
            var request = EngineRequest.For(EngineCommands.Validation)
                .Set(RequestFields.Paths, new[] { ResolvePath(ProfilePath) })
                .Set(RequestFields.TestType, TestType)
                .Set(RequestFields.MaxResultAgeHours, MaxResultAgeHours);
            if (!string.IsNullOrWhiteSpace(OutputPath)) request.Set(RequestFields.OutputPath, ResolvePath(OutputPath!));
            EngineEvent state = RunEngine(request, "Reading the storage validation state").First(EventTypes.Validation)
                ?? throw new StorageTestException(ErrorCodes.EngineFailed, "The ExchStorageTest engine ended without reporting the validation state: install matching versions of the module and the engine.", null);
            var observed = StorageValidationState.FromEvent(state.Fields);
            // DSC shows a resource's verbose stream: why it is out of state belongs there.
            foreach (StorageValidationReason reason in observed.Reasons) WriteVerbose(reason.ToString());
            WriteObject(observed);
        });
    }
}
