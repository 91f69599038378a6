# ABC111 A
import sys
def main():
	buf = sys.stdin.readline().strip()  # 入力
	print(buf.replace("1", "a").replace("9", "1").replace("a", "9"))
main()
