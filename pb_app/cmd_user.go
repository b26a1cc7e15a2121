package main

import (
	"errors"
	"fmt"

	"github.com/pocketbase/pocketbase/core"
	"github.com/spf13/cobra"

	"swapbay/lib/apierr"
	"swapbay/lib/roles"
	"swapbay/modules/users"
)

// newUserCommand is `swapbay user`, which manages SwapBay accounts from the shell.
func newUserCommand(app core.App) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "Manage SwapBay user accounts",
	}
	cmd.AddCommand(newUserCreateCommand(app))
	return cmd
}

// newUserCreateCommand is `swapbay user create`: an approved account with the terms bypassed
// (for the first admin, scripts and tests). It prints only the new id on stdout so scripts
// can capture it; errors go to stderr with a non-zero exit.
func newUserCreateCommand(app core.App) *cobra.Command {
	var in users.NewUser
	cmd := command("create", "Create an approved account (terms bypassed) and print its id",
		"swapbay user create --dir=./pb_data --email=admin@example.com --password=secret123 --role=master_admin --first=Ada --last=Admin",
		func(cmd *cobra.Command) error {
			if !roles.IsValid(in.Role) {
				return fmt.Errorf("--role must be one of %v", roles.All)
			}
			if err := runMigrations(app); err != nil {
				return err
			}
			in.Approval = roles.Approved
			rec, err := users.Create(app, in)
			if err != nil {
				var v *apierr.Error
				if errors.As(err, &v) && errors.Is(err, apierr.ErrInvalid) && v.Field != "" && !errors.Is(err, users.ErrEmailTaken) {
					return fmt.Errorf("--%s: %s", flagFor(v.Field), v.Message)
				}
				if errors.Is(err, users.ErrEmailTaken) {
					return fmt.Errorf("--email: %w", err)
				}
				return err
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), rec.Id)
			return err
		})
	cmd.Flags().StringVar(&in.Email, "email", "", "email address (required)")
	cmd.Flags().StringVar(&in.Password, "password", "", "password, at least 6 characters (required)")
	cmd.Flags().StringVar(&in.Role, "role", roles.Driver, "role: driver, admin, master_admin or corporate_liason")
	cmd.Flags().StringVar(&in.FirstName, "first", "", "first name (required)")
	cmd.Flags().StringVar(&in.LastName, "last", "", "last name (required)")
	return cmd
}

// flagFor names the command-line flag of a users field.
func flagFor(field string) string {
	switch field {
	case "firstName":
		return "first"
	case "lastName":
		return "last"
	case "isApproved":
		return "role"
	}
	return field
}
