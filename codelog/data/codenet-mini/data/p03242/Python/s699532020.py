# -*- coding: utf-8 -*-
# ABC111 A
def main():
	s = str(input())
	# debug
	print(s.replace("1","a").replace("9","1").replace("a","9"))
if __name__=="__main__":
	main()