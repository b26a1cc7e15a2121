package terms

// Template is a terms version ready to be saved: the built-in contractor agreement, or what
// the terms editor's "Load New 2025 Template" button fills in.
type Template struct {
	Title         string `json:"title"`
	Version       string `json:"version"`
	EffectiveDate string `json:"effectiveDate"`
	Content       string `json:"content"`
}

// BuiltInTemplate returns the built-in contractor agreement (spec part 2 §3). The seed
// migration installs it as the first active version; the terms editor offers it as a template.
// Its figures are the spec's and must not drift: weekly Thursday payouts; a 30-day probation
// with 100 tasks a week (a missed week pays 20% of gross, quitting before day 30 pays 20%);
// then a base of 80% plus 2.5% per 100 extra tasks, capped at 90%, with no quota.
func BuiltInTemplate() Template {
	return Template{
		Title:         "Micromobility Independent Contractor Agreement and Terms of Service",
		Version:       "2025.1",
		EffectiveDate: "2025-01-01",
		Content:       builtInContent,
	}
}

const builtInContent = `<h1>Micromobility Independent Contractor Agreement and Terms of Service</h1>
<p><strong>Version 2025.1, effective January 1, 2025.</strong></p>
<p>This agreement is between the operator of this battery swap service (the "Company") and you, the person signing below (the "Contractor"). By signing you confirm that you have read it, understood it and accept it. It governs your work swapping, moving, charging and recovering scooter batteries and your use of this application.</p>

<h2>1. Independent contractor relationship</h2>
<p>You work as an independent contractor, not as an employee, partner or agent of the Company. You decide how to carry out the tasks you accept, you supply your own transport unless the Company provides equipment in writing, and you are responsible for your own insurance, licences and expenses. Nothing in this agreement creates an employment relationship.</p>

<h2>2. Tasks and records</h2>
<p>Tasks include battery pickups and drop-offs, battery swaps, scooter moves (rebalancing) and retrievals or repairs. Every task must be recorded truthfully in the application at the time it is done. Records that are false, inflated or entered for someone else are a breach of this agreement and are not paid.</p>

<h2>3. Payment</h2>
<ul>
<li>Earnings are calculated per completed task at the rates published in the application.</li>
<li>Payouts are made <strong>weekly, every Thursday</strong>, for the work week (Monday to Sunday) that ended before it.</li>
<li>The Company may correct a payout when task records are found to be wrong; you will be told what was corrected and why.</li>
</ul>

<h2>4. Probation period (first 30 days)</h2>
<ul>
<li>Your first <strong>30 days</strong> from approval are a probation period.</li>
<li>During probation you must complete at least <strong>100 tasks per week</strong>.</li>
<li>For any probation week in which you complete fewer than 100 tasks, you are paid <strong>20% of your gross earnings</strong> for that week.</li>
<li>If you stop working with the Company <strong>before day 30</strong>, your unpaid earnings for the probation period are paid at <strong>20% of gross</strong>.</li>
</ul>

<h2>5. Pay after probation</h2>
<ul>
<li>After probation your base pay is <strong>80% of gross earnings</strong>.</li>
<li>For every <strong>100 tasks</strong> you complete in a week above the first 100, your share rises by <strong>2.5%</strong>.</li>
<li>Your share is <strong>capped at 90%</strong> of gross earnings.</li>
<li>After probation there is <strong>no weekly task quota</strong>.</li>
</ul>

<h2>6. Battery allotments</h2>
<p>The Company may allot batteries to you for pickups, home charging, moving, transit, maintenance, delivery or other purposes. Every allotted battery remains Company property, is recorded against your name in the application, and must be returned, swapped or dropped off as recorded. Dead batteries must be reported as dead at drop-off. Batteries that cannot be accounted for may be charged against your earnings after a fair review.</p>

<h2>7. Equipment responsibility</h2>
<p>You are responsible for the batteries, chargers, tools and any other equipment in your possession from pickup until they are returned. You must store them safely, protect them from heat, water and theft, and report loss, damage or a safety problem (swelling, smoke, heat) at once. Loss or damage caused by negligence or misuse may be deducted from your payouts.</p>

<h2>8. Conduct</h2>
<ul>
<li>Obey traffic laws and local rules for parking and moving scooters.</li>
<li>Treat the public, other contractors and Company staff with respect; harassment, violence or threats end this agreement immediately.</li>
<li>Do not work under the influence of alcohol or drugs.</li>
<li>Keep your account credentials private; you are responsible for everything recorded under your account.</li>
</ul>

<h2>9. Confidentiality (NDA)</h2>
<p>You will keep confidential all non-public information you learn through this work, including fleet sizes and locations, charging and warehouse sites, pay rates, customer and partner information and the contents of this application. You will not disclose or use it for any other purpose, during this agreement or after it ends. Photos taken for the Company are Company property.</p>

<h2>10. Non-compete</h2>
<p>For <strong>1 year</strong> after this agreement ends, you will not perform battery swapping, scooter rebalancing or comparable micromobility fleet services for a direct competitor of the Company in the markets where you worked, and you will not solicit the Company's contractors or partners to leave it, to the extent the law where you work allows.</p>

<h2>11. Taxes and 1099 acknowledgment</h2>
<p>You acknowledge that you are paid as an independent contractor and that no taxes are withheld from your payouts. You are responsible for reporting your income and paying your own taxes. The Company will issue an IRS Form 1099 (or its local equivalent) for the payments made to you, and you agree to provide a valid taxpayer identification form on request.</p>

<h2>12. Termination</h2>
<p>Either party may end this agreement at any time. The Company may suspend or close your account for a breach of this agreement. Sections 6, 7, 9, 10 and 11, and your right to be paid for work already done (subject to section 4), survive the end of the agreement.</p>

<h2>13. Electronic signature and changes</h2>
<p>Your electronic signature has the same effect as a handwritten one. The Company records the version you signed, the date and time, your IP address and your device. When these terms change you will be asked to read and sign the new version before you continue to use the application.</p>
`
