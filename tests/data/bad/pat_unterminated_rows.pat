pattern p
  kind matrix
  rows
    111
pattern q
