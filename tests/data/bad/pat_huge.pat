pattern p
  kind thrust
  fire none time=1e999
end
