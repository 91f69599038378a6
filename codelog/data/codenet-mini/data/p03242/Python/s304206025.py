# -*- coding: utf-8 -*-
s = str( input() )
print( s.replace( "9", "1" ).replace( "1", "9" ) )
