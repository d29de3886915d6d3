// Go's reading of the contract's patterns (RE2, as kin-openapi and oapi-codegen compile them):
// reads {"patterns": [...], "strings": [...]} on stdin, writes for each pattern either its
// compile error or whether regexp finds it in each string, as JSON on stdout.
package main

import (
	"encoding/json"
	"os"
	"regexp"
)

type judged struct {
	Error    string `json:"error,omitempty"`
	Verdicts []bool `json:"verdicts,omitempty"`
}

func main() {
	var input struct {
		Patterns []string `json:"patterns"`
		Strings  []string `json:"strings"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&input); err != nil {
		panic(err)
	}
	results := make([]judged, len(input.Patterns))
	for i, pattern := range input.Patterns {
		compiled, err := regexp.Compile(pattern)
		if err != nil {
			results[i].Error = err.Error()
			continue
		}
		results[i].Verdicts = make([]bool, len(input.Strings))
		for j, text := range input.Strings {
			results[i].Verdicts[j] = compiled.MatchString(text)
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		panic(err)
	}
}
