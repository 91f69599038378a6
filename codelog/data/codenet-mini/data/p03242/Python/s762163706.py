def main():  # ループ
    # O(N)
    S = input()
    print(1110 - S)
# O(N)
main()
