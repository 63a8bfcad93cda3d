pattern p
  kind matrix
  rows
    111
    11
  end
end
