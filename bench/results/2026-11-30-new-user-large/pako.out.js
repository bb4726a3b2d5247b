a.a= 'invalid code lengths set'
