patern p
