module payin-go-client-check

go 1.19

require github.com/sendtips/qiwi v0.0.0

// run.sh points this at a local checkout of github.com/sendtips/qiwi (no module download)
replace github.com/sendtips/qiwi => ./client
