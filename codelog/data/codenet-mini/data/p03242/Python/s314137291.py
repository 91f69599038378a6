#!/usr/bin/env python3
import sys

def main():
    first = int( sys.stdin.readline() )  # ループ
    print( int( str( first ).replace( "1", "t" ).replace( "9", "1" ).replace( "t", "9" ) ) )


# 入力
if __name__ == "__main__":
    main()
