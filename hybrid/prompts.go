package hybrid

// aboutStrict is the section of the system prompt on run_workflow, in
// bench's own words.
const aboutStrict = `# The run_workflow tool

Besides your own tools you can call run_workflow. It hands one file to a fixed repair routine written as code, not to you: the routine runs the test command, then sends the test output and the whole file (with your note, if you give one) to a model in a single request. That model sees nothing else, cannot run anything, and answers once with a new version of the whole file. The routine writes it over the file only when the answer names the file on a "FILE:" line followed by one code block; otherwise it writes nothing. Then it runs the tests again and tells you the tests before, what it wrote (or why it wrote nothing), and the tests after.

One call is one attempt. Check its result as you would check your own edit: a new failure after it is a new clue, which you may follow with your own tools or with another call. You decide whether to use it, and when you are done.`

// aboutNaive is aboutStrict for a tool that writes the lesson's way.
const aboutNaive = `# The run_workflow tool

Besides your own tools you can call run_workflow. It hands one file to a fixed repair routine written as code, not to you: the routine runs the test command, then sends the test output and the whole file (with your note, if you give one) to a model in a single request. That model sees nothing else, cannot run anything, and answers once with a new version of the whole file. The routine writes the code of the answer over the file as it comes (without a "FILE:" line, the first code block, or with none the whole answer). Then it runs the tests again and tells you the tests before, what it wrote, and the tests after.

One call is one attempt. Check its result as you would check your own edit: a new failure after it is a new clue, which you may follow with your own tools or with another call. You decide whether to use it, and when you are done.`

// about is the section of the system prompt on run_workflow.
func about(naive bool) string {
	if naive {
		return aboutNaive
	}
	return aboutStrict
}

// toolDescription is run_workflow's description in its schema.
const toolDescription = "Run the fixed repair workflow on one file: it runs the tests, asks a model once, in one request holding only the test output, the file and your note, for the complete corrected file, writes the answer over the file, and runs the tests again. Returns the tests before and after and what was written."

// The descriptions of run_workflow's arguments.
const (
	fileParam = "the file to fix, relative to the workspace root; left out, the task's source file"
	noteParam = "a short note added to the workflow's request: what you found, what the fix must keep; left out, none"
)
